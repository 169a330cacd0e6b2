import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { BatchRejectedError } from '../../settings/writes/batch-rejected';
import { PreconditionFailedError } from '../../settings/writes/precondition-failed';
import { UnsupportedByStoreError } from '../../settings/writes/unsupported-by-store';
import { RestError } from '../http/rest-error';

/** The REST error for a setting id the plugin does not have. */
export function settingNotFound(settingId: string, pluginId: string): RestError {
  return new RestError('rest_setting_not_found', `No setting "${settingId}" in plugin "${pluginId}".`, 404);
}

/**
 * The REST error for what a read of the settings layer threw: an unknown setting (code 404,
 * e.g. unregistered meanwhile) is 404 `rest_setting_not_found`; a missing store capability is
 * 501; anything else is returned unchanged (the pipeline answers it, a 500 for an unexpected
 * exception, a 503 for a store failure).
 */
export function toSettingReadError(error: unknown): unknown {
  if (error instanceof UnsupportedByStoreError) {
    return new RestError('rest_unsupported_by_store', error.message, 501, { feature: error.feature });
  }
  if (error instanceof Framework_Plugin_Exception && error.code === 404) {
    return new RestError('rest_setting_not_found', error.message, 404);
  }
  return error;
}

/** The wire code and status a refused write of one setting answers with (CONTRACT §5), from the settings layer's exception. */
export function settingWriteFailure(error: Framework_Plugin_Exception): { code: string; status: number } {
  if (error.code === 404) return { code: 'rest_setting_not_found', status: 404 };
  return {
    code: 'rest_setting_value_invalid',
    status: error.code >= 400 && error.code < 500 ? error.code : 400,
  };
}

/**
 * The REST error for what a write of the settings layer threw (CONTRACT §5, §8): a failed
 * If-Match is 412 `rest_precondition_failed` with the current tag in `data.etag`; a store
 * without the needed capability 501 `rest_unsupported_by_store`; an unknown setting 404
 * `rest_setting_not_found`; any other `Framework_Plugin_Exception` — a value the type refuses,
 * or the check of an `updateValue` override, whatever code it was given — is
 * `rest_setting_value_invalid`, with its code when that is 4xx and 400 otherwise. Anything else
 * (a store failure, a bug) is returned unchanged.
 */
export function toSettingRestError(error: unknown, settingId: string): unknown {
  if (error instanceof PreconditionFailedError) {
    return new RestError(
      'rest_precondition_failed',
      'The setting has changed since the given entity tag: nothing was stored.',
      412,
      {
        etag: error.etag,
      },
    );
  }
  if (error instanceof UnsupportedByStoreError || error instanceof BatchRejectedError)
    return toSettingReadError(error);
  if (!(error instanceof Framework_Plugin_Exception)) return error;
  const { code, status } = settingWriteFailure(error);
  if (status === 404) return new RestError(code, error.message, 404);
  return new RestError(code, error.message, status, {
    params: { value: error.message },
    setting_id: settingId,
  });
}
