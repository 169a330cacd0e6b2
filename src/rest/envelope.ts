import { RestResponse } from './http/rest-response';

/** A success envelope with data: `{success: true, data}`. */
export interface SuccessEnvelope<T> {
  /** Always `true`: tells a success body from a `{success: false, …}` failure body. */
  success: true;
  /** The payload: the prepared item, or the array of items of a list. */
  data: T;
}

/**
 * Answers `{success: true, data}` (the envelope of the reference item routes).
 *
 * @param status - 200 by default; 201 for a created item
 * @param headers - extra headers, e.g. the pagination headers of a list
 */
export function successResponse<T>(
  data: T,
  status = 200,
  headers: Record<string, string> = {},
): RestResponse {
  return new RestResponse({ success: true, data } satisfies SuccessEnvelope<T>, status, headers);
}

/** Answers `{success: true, message}`. */
export function successMessageResponse(message: string, status = 200): RestResponse {
  return new RestResponse({ success: true, message }, status);
}

/** Answers `{success: false, message}` with 404. */
export function notFoundResponse(message: string): RestResponse {
  return new RestResponse({ success: false, message }, 404);
}

/** Answers `{success: false, errors}` with 400: a validation failure the handler found itself. */
export function validationFailedResponse(errors: readonly unknown[]): RestResponse {
  return new RestResponse({ success: false, errors: [...errors] }, 400);
}
