import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { PlanConflictError, PlanRefusedError, type SettingsPlan } from '../../settings/config/settings-plan';
import { SettingsRulesError } from '../../settings/rules/rules-error';
import { isScopePath } from '../../settings/scope/scope-path';
import type { WriteOptions } from '../../settings/writes/write-options';
import type { ArgSchema } from '../args/arg-schema';
import { invalidParamsError } from '../args/compiled-arg';
import { sharedArgs } from '../args/endpoint-args';
import { restError } from '../errors/rest-error-factory';
import { JsonText } from '../http/json-text';
import type { RestRequest } from '../http/rest-request';
import { RestResponse } from '../http/rest-response';
import { lazyRouteDocs } from '../registry/library-route-docs';
import type { RouteRegistry } from '../registry/route-registry';
import type { PermissionCallback } from '../registry/types';
import { mayAccessScope } from './scope-argument';
import { rulesFailed, toSettingRestError } from './setting-errors';

const DRY_RUN: ArgSchema = {
  type: 'boolean',
  default: false,
  description: 'Answer the plan without applying it (200 even when it has errors).',
};
const PLAN_ID: ArgSchema = {
  type: 'string',
  description:
    'The id of the plan reviewed (from a dry run): applied only when the fresh plan has this id, else 412 with the fresh plan.',
};

const IMPORT_ARGS = sharedArgs({
  document: {
    type: 'object',
    required: true,
    description: 'The settings document to bring the stored settings to.',
  },
  prune: {
    type: 'boolean',
    default: false,
    description: 'Also remove every stored value the document does not list, at every level.',
  },
  dry_run: DRY_RUN,
  plan_id: PLAN_ID,
});

const RESTORE_ARGS = sharedArgs({
  to: {
    type: 'string',
    required: true,
    description: 'An ISO 8601 time, or the id of a history entry (the state right after it).',
  },
  scope: {
    type: ['string', 'null'],
    description: 'Only this level: a scope path, or null for the global level. Absent: every level.',
  },
  setting_ids: { type: 'array', items: { type: 'string' }, description: 'Only these settings.' },
  dry_run: DRY_RUN,
  plan_id: PLAN_ID,
});

/** Who applies, as the history records it: the authenticated user, through REST. */
function writer(request: RestRequest): WriteOptions {
  return { actor: request.user === null ? null : { id: request.user.id }, via: 'rest' };
}

/**
 * The configuration-as-code routes of a plugin (CONTRACT §13), beside its settings routes:
 * `GET …/settings/export` (the document, without the levels the user may not reach),
 * `POST …/settings/import` and `POST …/settings/restore` (a plan: with `dry_run`, answered; else
 * made and applied in one request). `canAccessScope` applies to every level a plan touches.
 */
export class SettingsConfigRoutes {
  readonly #settings: Framework_Abstract_Settings;

  /** @param settings - the plugin's settings */
  constructor(settings: Framework_Abstract_Settings) {
    this.#settings = settings;
  }

  /** Registers the three routes under `base` (`/<pluginId>/settings`) in `namespace`. */
  registerRoutes(
    routes: RouteRegistry,
    namespace: string,
    base: string,
    permission: PermissionCallback,
  ): void {
    const docsOf = lazyRouteDocs((docs) => docs.config(this.#settings));
    routes.register(namespace, `${base}/export`, {
      methods: 'GET',
      permission,
      handler: (request) => this.#export(request),
      docs: docsOf('export'),
    });
    routes.register(namespace, `${base}/import`, {
      methods: 'POST',
      permission,
      args: IMPORT_ARGS,
      handler: (request) => this.#import(request),
      docs: docsOf('import'),
    });
    routes.register(namespace, `${base}/restore`, {
      methods: 'POST',
      permission,
      args: RESTORE_ARGS,
      handler: (request) => this.#restore(request),
      docs: docsOf('restore'),
    });
  }

  async #export(request: RestRequest): Promise<RestResponse> {
    const pluginId = this.#settings.getId();
    let text = '';
    try {
      for await (const chunk of this.#settings.exportSettingsText({
        filter: (scope) => mayAccessScope(request, scope, pluginId),
      })) {
        text += chunk;
      }
    } catch (error) {
      throw toSettingRestError(error, '');
    }
    return new RestResponse(new JsonText(text));
  }

  async #import(request: RestRequest): Promise<RestResponse> {
    const document = request.get('document');
    const plan = () =>
      this.#settings
        .planImport(document, { prune: request.get('prune') === true })
        .catch((error: unknown) => {
          // A document refused as a whole (format, version, plugin, newer schema) is an invalid argument.
          if (error instanceof Framework_Plugin_Exception && error.code === 400) {
            throw invalidParamsError({
              document: {
                code: 'rest_invalid_param',
                path: ['document'],
                params: { reason: 'custom', message: error.message },
              },
            });
          }
          throw toSettingRestError(error, '');
        });
    return this.#planAndApply(request, plan);
  }

  async #restore(request: RestRequest): Promise<RestResponse> {
    const scope = request.get('scope');
    const ids = request.get('setting_ids');
    const plan = () =>
      this.#settings
        .planRestore({
          to: request.get('to') as string,
          ...(scope === undefined ? {} : { scope: scope as string | null }),
          ...(Array.isArray(ids) ? { settingIds: ids as string[] } : {}),
        })
        .catch((error: unknown) => {
          if (error instanceof Framework_Plugin_Exception && error.code === 404) {
            throw restError('rest_history_not_found', error.message);
          }
          if (error instanceof Framework_Plugin_Exception && error.code === 400) {
            throw invalidParamsError({
              scope: {
                code: 'rest_invalid_param',
                path: ['scope'],
                params: { reason: 'custom', message: error.message },
              },
            });
          }
          throw toSettingRestError(error, '');
        });
    return this.#planAndApply(request, plan);
  }

  /** Makes the plan, checks the user may reach every level it touches, then answers it (dry run) or applies it. */
  async #planAndApply(request: RestRequest, make: () => Promise<SettingsPlan>): Promise<RestResponse> {
    const plan = await make();
    await this.#assertLevels(request, plan);
    if (request.get('dry_run') === true) return new RestResponse(plan);
    if (plan.errors.length > 0) {
      throw restError(
        'rest_plan_invalid',
        `The plan has ${plan.errors.length} error(s): nothing was stored.`,
        {
          errors: plan.errors,
        },
      );
    }
    const reviewed = request.get('plan_id');
    if (typeof reviewed === 'string' && reviewed !== plan.id) {
      throw restError(
        'rest_precondition_failed',
        'The plan changed since it was reviewed: nothing was stored.',
        {
          plan,
          conflicts: [],
        },
      );
    }
    try {
      const { applied } = await this.#settings.applyPlan(plan, writer(request));
      return new RestResponse({ plan, applied });
    } catch (error) {
      if (error instanceof PlanConflictError) {
        const fresh = await make();
        throw restError('rest_precondition_failed', error.message, {
          plan: fresh,
          conflicts: error.conflicts,
        });
      }
      if (error instanceof SettingsRulesError) throw rulesFailed(error);
      if (error instanceof PlanRefusedError) {
        throw restError('rest_plan_invalid', error.message, { errors: error.errors });
      }
      throw toSettingRestError(error, '');
    }
  }

  /** 401/403 unless `canAccessScope` allows every level the plan touches (its changes and its errors). */
  async #assertLevels(request: RestRequest, plan: SettingsPlan): Promise<void> {
    const pluginId = this.#settings.getId();
    const levels = new Set<string>();
    for (const item of [...plan.changes, ...plan.errors]) levels.add(item.scope ?? '');
    for (const level of levels) {
      // A level that is no scope path is only an error of the plan: nothing of it is read or written.
      if (level !== '' && !isScopePath(level)) continue;
      if (!(await mayAccessScope(request, level, pluginId))) {
        throw request.user === null
          ? restError('rest_forbidden', 'Sorry, you must be authenticated to do that.', {}, { status: 401 })
          : restError(
              'rest_forbidden',
              `Sorry, you are not allowed to change the settings of ${level === '' ? 'the global level' : `the scope "${level}"`}.`,
              {},
              { status: 403 },
            );
      }
    }
  }
}
