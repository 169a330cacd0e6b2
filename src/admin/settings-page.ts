import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import { OptionStoreError } from '../errors/option-store-error';
import type { AdminPage, AdminRequestContext } from '../rest/admin-hook';
import { checkUser, type RestUser } from '../rest/rest-user';
import { SettingsRulesError } from '../settings/rules/rules-error';
import { SchemaOutdatedError } from '../settings/schema-versions/schema-outdated';
import { ScopeNotFoundError } from '../settings/scope/scope-not-found';
import { describeInvalidScopePath, isScopePath } from '../settings/scope/scope-path';
import { PartialWriteError } from '../settings/writes/apply-without-commit';
import { BatchRejectedError } from '../settings/writes/batch-rejected';
import type { FieldState } from './admin-field';
import {
  ADMIN_STATUS_PATH,
  adminHistoryPath,
  adminSettingsPath,
  historyQuery,
  normaliseAdminPath,
  relativeHref,
  settingsRouteOf,
} from './admin-paths';
import { createCsrfToken, verifyCsrfToken } from './csrf-token';
import { INHERIT_FIELD } from './field-renderer';
import { DEFAULT_MAX_FORM_BYTES, readFormBody } from './form-body';
import { formChanges, type LevelValue } from './form-changes';
import { HistoryRoutes, RESTORED_FLAG } from './history-routes';
import { escapeHtml } from './html-escape';
import { htmlResponse, seeOther } from './html-response';
import { textsDigest } from './inherit-edits';
import { loginHref } from './login-link';
import {
  type AdminNavLink,
  type MessageAction,
  renderAdminDocument,
  renderMessageDocument,
} from './page-layout';
import { placeRuleProblems } from './rule-problems';
import { readSchemaNotice, schemaNotice } from './schema-notice';
import { withoutSecretEcho } from './secret-echo';
import type { Framework_Register_Settings_Fields } from './settings-fields';
import { renderStatusBlocks } from './status-screen';
import { widgetRow } from './widgets/widget-table';

/** A small form that opens the page of another scope (`?scope=`; empty: the global settings). */
function renderScopeSwitcher(scope: string): string {
  return `<form class="scope-switcher" method="get" action=""><label for="scope-path">Scope</label> <input type="text" id="scope-path" name="scope" value="${escapeHtml(
    scope,
  )}" placeholder="global" spellcheck="false"> <button type="submit" class="button-secondary">Show</button></form>\n`;
}

/** The message next to a field changed while its "Use parent value" box was ticked. */
function editedWhileInheritingMessage(scope: string): string {
  return `Not saved: this field was changed while “Use parent value” was ticked, so the change would have been ignored. The box is now unticked: save again to store this value in scope ${scope}, or tick the box to keep the parent value.`;
}

/** The name of the hidden CSRF field of the settings form. */
export const CSRF_FIELD = '_csrf';

/** The query flag the page is redirected to after a successful save; it shows "Settings saved". */
export const SAVED_FLAG = 'settings-updated';

/** The plugin a settings page belongs to (a `Framework_Plugin`, or anything with its id and name). */
export interface AdminSettingsPlugin {
  /** The plugin's id: the `{pluginId}` of `/admin/settings/{pluginId}`. */
  getId(): string;
  /** The plugin's name: the page's title. */
  getName(): string;
}

/** Options of {@link Framework_Register_Settings}. */
export interface RegisterSettingsOptions {
  /** The form fields: one per setting of the plugin's settings handler. */
  fields: Framework_Register_Settings_Fields;
  /** The largest form body accepted, in bytes (413 beyond). Default 1 MiB. */
  maxBodyBytes?: number;
}

/** Options of {@link Framework_Register_Settings.renderForm}. */
export interface RenderFormOptions {
  /** The user's CSRF token: `await createCsrfToken(csrfSecret, user.id, { sessionId })`. */
  csrfToken: string;
  /** Where the form posts; default the page's own path, `/admin/settings/{pluginId}`. */
  action?: string;
}

/** What the settings document shows besides the fields. */
interface SettingsView {
  readonly states: ReadonlyMap<string, FieldState>;
  readonly csrfToken: string;
  readonly action: string;
  /** The scope the page edits; `''` for the global level. */
  readonly scope?: string;
  /** The path of the request being answered (links are relative to it); none for an embedded form. */
  readonly pagePath?: string;
  readonly saved?: boolean;
  /** A restore from the history view was applied: the page says "Restored". */
  readonly restored?: boolean;
  readonly errors?: ReadonlyMap<string, string>;
  readonly problem?: string;
  /** What was typed into secret fields (a save that failed): no message shown may repeat it. */
  readonly typedSecrets?: ReadonlyMap<string, string>;
  /**
   * Why the settings cannot be saved now (the stored schema version is not this server's): the
   * page shows this notice and the values read-only, without a form.
   */
  readonly readOnly?: string;
}

/** `view` with every message that would repeat a typed secret replaced (see `withoutSecretEcho`). */
function withoutSecretEchoes(view: SettingsView): SettingsView {
  const typed = [...(view.typedSecrets?.values() ?? [])];
  if (typed.length === 0) return view;
  const clean = (message: string) => withoutSecretEcho(message, typed);
  const states = new Map(
    [...view.states].map(([id, state]) => [
      id,
      state.error === undefined ? state : { ...state, error: clean(state.error) },
    ]),
  );
  return {
    ...view,
    states,
    ...(view.errors
      ? { errors: new Map([...view.errors].map(([id, message]) => [id, clean(message)])) }
      : {}),
    ...(view.problem === undefined ? {} : { problem: clean(view.problem) }),
  };
}

/**
 * A plugin's settings page in the host's admin area, titled with the plugin's name. Given to
 * `createRestServer({ admin: { pages, csrfSecret } })`, it serves:
 *
 * - `GET /admin/settings/{pluginId}`: the form, one field per setting;
 * - `POST /admin/settings/{pluginId}`: the options handler (form-encoded, CSRF-checked,
 *   every field validated before anything is saved; 303 back with "Settings saved");
 * - `GET /admin/settings/{pluginId}/history?setting=<id>&scope=<path>`: one setting's history at
 *   one level, newest first, each entry with "Restore to here";
 * - `POST /admin/settings/{pluginId}/restore?setting=<id>&scope=<path>`: the preview of a restore,
 *   then (with the previewed plan's id) applying it, 303 back with "Restored";
 * - `GET /admin/status`: the status screen (the first page given answers it).
 *
 * Every page needs an authenticated user with the management capability.
 *
 * @example
 * ```ts
 * const fields = new Framework_Register_Settings_Fields(plugin.getSettingsHandler()!);
 * const server = createRestServer({
 *   plugins: [plugin],
 *   authenticate: readSessionCookie,
 *   admin: { pages: [new Framework_Register_Settings(plugin, { fields })], csrfSecret: process.env.CSRF_SECRET! },
 * });
 * ```
 */
export class Framework_Register_Settings implements AdminPage {
  readonly #plugin: AdminSettingsPlugin;
  readonly #fields: Framework_Register_Settings_Fields;
  readonly #maxBodyBytes: number;
  readonly #history: HistoryRoutes;

  /**
   * @param plugin - the plugin whose settings the page edits
   * @param options - the fields (their settings handler's id must be the plugin's id)
   * @throws `Framework_Plugin_Exception` (from `commerce-plugin-framework`, code 400) when the
   *   fields belong to another plugin's settings, or `options.maxBodyBytes` is not a positive integer
   */
  constructor(plugin: AdminSettingsPlugin, options: RegisterSettingsOptions) {
    const settingsId = options.fields.getSettingsHandler().getId();
    if (settingsId !== plugin.getId()) {
      throw new Framework_Plugin_Exception(
        `Settings page of plugin "${plugin.getId()}": its fields edit the settings of "${settingsId}"; use the plugin's own settings handler`,
        400,
      );
    }
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_FORM_BYTES;
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
      throw new Framework_Plugin_Exception(
        `maxBodyBytes must be a positive integer, got ${maxBodyBytes}`,
        400,
      );
    }
    this.#plugin = plugin;
    this.#fields = options.fields;
    this.#maxBodyBytes = maxBodyBytes;
    this.#history = new HistoryRoutes({
      plugin,
      fields: options.fields,
      csrfField: CSRF_FIELD,
      message: (request, status, title, text) => this.#message(request, status, title, text),
      nav: (pagePath) => this.#nav(null, pagePath),
      scopeOf: (request, context, url) => this.#scopeOf(request, context, url),
      readPostedForm: (request, context) => this.#readPostedForm(request, context),
    });
  }

  /** The plugin the page belongs to. */
  getPlugin(): AdminSettingsPlugin {
    return this.#plugin;
  }

  /** The page's fields. */
  getFields(): Framework_Register_Settings_Fields {
    return this.#fields;
  }

  /** The page's path, `/admin/settings/{pluginId}`. */
  getPath(): string {
    return adminSettingsPath(this.#plugin.getId());
  }

  /**
   * The settings form alone (a `<form>` element with the current values and the hidden CSRF
   * field), for hosts that embed it in their own admin layout. Include the stylesheet
   * `ADMIN_STYLES` (or your own) and post the form to this page's handler.
   *
   * @throws `OptionStoreError` when the store fails while reading the values
   */
  async renderForm(options: RenderFormOptions): Promise<string> {
    const values = await this.#fields.readValues();
    return this.#renderFormHtml({
      states: this.#fields.statesFor(values),
      csrfToken: options.csrfToken,
      action: options.action ?? this.getPath(),
    });
  }

  /** {@inheritDoc AdminPage.handleAdminRequest} */
  async handleAdminRequest(request: Request, context: AdminRequestContext): Promise<Response | null> {
    const url = new URL(request.url);
    const path = normaliseAdminPath(url.pathname);
    const isStatus = path === ADMIN_STATUS_PATH;
    const route = isStatus ? null : settingsRouteOf(path);
    if (!isStatus && route?.pluginId !== this.#plugin.getId()) return null;
    const view = route?.view ?? 'status';
    try {
      const allowed =
        view === 'settings' ? ['GET', 'HEAD', 'POST'] : view === 'restore' ? ['POST'] : ['GET', 'HEAD'];
      if (!allowed.includes(request.method)) {
        return await this.#message(
          request,
          405,
          'Method not allowed',
          `This page does not accept ${request.method} requests.`,
          {
            Allow: allowed.join(', '),
          },
        );
      }
      const denied = await this.#checkAccess(request, context);
      if (denied) return denied;
      if (isStatus) return await this.#serveStatus(request, context);
      if (view === 'history') return await this.#history.serveHistory(request, context, url);
      if (view === 'restore') return await this.#history.handleRestore(request, context, url);
      if (request.method === 'POST') return await this.#handlePost(request, context, url);
      return await this.#serveForm(request, context, url);
    } catch (error) {
      // The settings' `scopeExists` refused the page's scope: before anything was stored.
      if (error instanceof ScopeNotFoundError) return await this.#scopeNotFound(request, error.scope);
      if (error instanceof OptionStoreError) {
        return this.#message(
          request,
          503,
          'Settings unavailable',
          'The settings store is not answering. Nothing was changed; try again in a moment.',
        );
      }
      return this.#message(
        request,
        500,
        'Something went wrong',
        'The page could not be shown. Nothing was changed.',
      );
    }
  }

  /** The admin bar's links, relative to the page at `pagePath` (so they work under a mount prefix). */
  #nav(current: 'settings' | 'status' | null, pagePath: string): AdminNavLink[] {
    return [
      {
        label: `${this.#plugin.getName()} settings`,
        href: relativeHref(pagePath, this.getPath()),
        current: current === 'settings',
      },
      {
        label: 'System status',
        href: relativeHref(pagePath, ADMIN_STATUS_PATH),
        current: current === 'status',
      },
    ];
  }

  #message(
    request: Request,
    status: number,
    title: string,
    text: string,
    headers: Record<string, string> = {},
    action?: MessageAction,
  ): Promise<Response> {
    const nav = this.#nav('settings', new URL(request.url).pathname);
    return htmlResponse(request, renderMessageDocument(title, text, nav, action), status, headers);
  }

  /** The page of a scope the settings' `scopeExists` option refuses (404). */
  #scopeNotFound(request: Request, scope: string): Promise<Response> {
    const outcome = request.method === 'POST' ? ' Nothing was saved.' : '';
    return this.#message(
      request,
      404,
      'Unknown scope',
      `These settings have no scope “${scope}”.${outcome} Check the path in the address, or open the global settings.`,
    );
  }

  async #checkAccess(request: Request, context: AdminRequestContext): Promise<Response | null> {
    // The server checked the user already; a page called directly gets the same check.
    const user = checkUser(context.user);
    if (user === null) {
      // Back to this very page (path and query) once signed in.
      const url = new URL(request.url);
      const href =
        context.loginUrl === undefined
          ? undefined
          : loginHref(context.loginUrl, `${url.pathname}${url.search}`);
      return href === undefined
        ? this.#message(
            request,
            401,
            'Sign in required',
            'Sign in to the shop’s admin area with an account that may manage the shop, then reload this page.',
          )
        : this.#message(
            request,
            401,
            'Sign in required',
            'Sign in with an account that may manage the shop to see this page.',
            {},
            { label: 'Sign in', href },
          );
    }
    if (!user.capabilities.includes(context.managementCapability)) {
      return this.#message(
        request,
        403,
        'Access denied',
        'Your account is not allowed to manage the shop settings.',
      );
    }
    return null;
  }

  async #serveStatus(request: Request, context: AdminRequestContext): Promise<Response> {
    const report = await context.getSystemStatus();
    // The report holds only the blocks this user may see (`canAccessScope` of each plugin's
    // global level): a plugin without its block is not named at all.
    const shown = context.plugins.filter((plugin) =>
      Object.hasOwn(report, `${context.commercePrefix}_${plugin.id}`),
    );
    const bodyHtml =
      shown.length === 0 && context.plugins.length > 0
        ? '<div class="card"><p>Your account may not see the status of any plugin.</p></div>'
        : renderStatusBlocks(report, shown, context.commercePrefix);
    const html = renderAdminDocument({
      title: 'System status',
      heading: 'System status',
      subtitle: 'What every plugin reports about itself. Secrets are masked.',
      nav: this.#nav('status', new URL(request.url).pathname),
      bodyHtml,
    });
    return htmlResponse(request, html, 200);
  }

  /**
   * The scope a request addresses (`?scope=`; `''`: the global level), once it is a valid path
   * the user may reach (the server's `canAccessScope`), or the page refusing it (400, 403).
   */
  async #scopeOf(request: Request, context: AdminRequestContext, url: URL): Promise<string | Response> {
    const asked = url.searchParams.get('scope') ?? '';
    if (asked !== '' && !isScopePath(asked)) {
      return this.#message(request, 400, 'Unknown scope', `${describeInvalidScopePath(asked)}.`);
    }
    const check = context.canAccessScope;
    if (
      check !== undefined &&
      (await check(context.user as RestUser, asked, this.#plugin.getId())) !== true
    ) {
      return this.#message(
        request,
        403,
        'Access denied',
        asked === ''
          ? 'Your account may not change the settings every scope inherits.'
          : 'Your account may not manage the settings of this scope.',
      );
    }
    return asked;
  }

  /** Where the form posts: the page itself, with its scope. */
  #action(url: URL, scope: string): string {
    const page = relativeHref(url.pathname, this.getPath());
    return scope === '' ? page : `${page}?scope=${encodeURIComponent(scope)}`;
  }

  /** The fields' states for `values`, with the "Use parent value" boxes on a scope's page (`inherit`: ticked ones, else as stored). */
  #states(
    values: ReadonlyMap<string, LevelValue>,
    scope: string,
    base: ReadonlyMap<string, FieldState>,
    inherit?: ReadonlySet<string>,
  ): Map<string, FieldState> {
    const states = new Map(base);
    if (scope === '') return states;
    for (const [id, state] of states) {
      const value = values.get(id);
      const checked = inherit ? inherit.has(id) : value?.origin !== scope;
      const origin = value?.origin;
      const from =
        origin === undefined || origin === null
          ? 'the default'
          : origin === ''
            ? 'the global value'
            : `scope ${origin}`;
      states.set(id, {
        ...state,
        inherit: checked ? { checked, from, shown: textsDigest(state.texts) } : { checked, from },
      });
    }
    return states;
  }

  async #serveForm(request: Request, context: AdminRequestContext, url: URL): Promise<Response> {
    const scope = await this.#scopeOf(request, context, url);
    if (scope instanceof Response) return scope;
    // Read first: a load may run the migrations that are due (`migrateOnLoad`).
    const values = await this.#fields.readLevel(scope);
    const readOnly = await readSchemaNotice(this.#fields.getSettingsHandler());
    const csrfToken = await createCsrfToken(context.csrfSecret, context.user!.id, {
      sessionId: context.sessionId,
    });
    const shown = new Map([...values].map(([id, value]) => [id, value.shown]));
    const view: SettingsView = {
      states: this.#states(values, scope, this.#fields.statesFor(shown)),
      csrfToken,
      action: this.#action(url, scope),
      scope,
      pagePath: url.pathname,
      saved: url.searchParams.has(SAVED_FLAG),
      restored: url.searchParams.has(RESTORED_FLAG),
      ...(readOnly === undefined ? {} : { readOnly }),
    };
    return htmlResponse(request, this.#renderDocument(view), 200);
  }

  /**
   * The answer to a post while the stored schema version is not this server's (409, nothing
   * stored): the notice, and the values as stored, read-only.
   */
  #schemaOutdated(
    request: Request,
    view: SettingsView,
    current: ReadonlyMap<string, LevelValue>,
    notice: string,
  ): Promise<Response> {
    const scope = view.scope ?? '';
    const shown = new Map([...current].map(([id, value]) => [id, value.shown]));
    const states = this.#states(current, scope, this.#fields.statesFor(shown));
    return htmlResponse(
      request,
      this.#renderDocument({ ...view, states, readOnly: `Nothing was saved. ${notice}` }),
      409,
    );
  }

  /**
   * A posted form once its encoding, its size and its CSRF token are checked, or the page
   * refusing it (415, 413, 400; 403 for a token that is missing, expired or someone else's).
   */
  async #readPostedForm(request: Request, context: AdminRequestContext): Promise<URLSearchParams | Response> {
    const body = await readFormBody(request, this.#maxBodyBytes);
    if (!body.ok) {
      const title =
        body.status === 415
          ? 'Unsupported form encoding'
          : body.status === 413
            ? 'Form too large'
            : 'Unreadable form';
      return this.#message(request, body.status, title, `${body.message} Nothing was saved.`);
    }
    const { form } = body;
    const verified = await verifyCsrfToken(context.csrfSecret, context.user!.id, form.get(CSRF_FIELD), {
      sessionId: context.sessionId,
      maxAgeMs: context.csrfMaxAgeMs,
    });
    if (!verified) {
      return this.#message(
        request,
        403,
        'Form not accepted',
        'The form could not be verified: its security token is missing, has expired, or belongs to another account or session. Nothing was saved. Reload the settings page and try again.',
      );
    }
    return form;
  }

  async #handlePost(request: Request, context: AdminRequestContext, url: URL): Promise<Response> {
    const user = context.user!;
    const form = await this.#readPostedForm(request, context);
    if (form instanceof Response) return form;
    const scope = await this.#scopeOf(request, context, url);
    if (scope instanceof Response) return scope;
    const csrfToken = await createCsrfToken(context.csrfSecret, user.id, { sessionId: context.sessionId });
    // One read: what is stored now, to show the form again and to leave untouched fields alone.
    const current = await this.#fields.readLevel(scope);
    const shown = new Map([...current].map(([id, value]) => [id, value.shown]));
    const submission = this.#fields.readSubmission(form, shown);
    const ticked = new Set(scope === '' ? [] : form.getAll(INHERIT_FIELD));
    // A field changed while its "Use parent value" box was ticked would be thrown away: the form
    // is refused, and shown again with that box unticked and the field's value kept.
    const edited = this.#fields.editedWhileInheriting(form, ticked, shown);
    const inherit = new Set([...ticked].filter((id) => !edited.has(id)));
    // A field that inherits is not stored: what was typed into it does not matter.
    const errors = new Map([...submission.errors].filter(([id]) => !inherit.has(id)));
    for (const id of edited) errors.set(id, editedWhileInheritingMessage(scope));
    const view: SettingsView = {
      states: this.#states(current, scope, submission.states, inherit),
      csrfToken,
      action: this.#action(url, scope),
      scope,
      pagePath: url.pathname,
    };
    // The field checks' messages never quote a secret's text (the settings layer's messages for
    // secrets are general, JSON advice for a secret says where, not what).
    const settings = this.#fields.getSettingsHandler();
    const changes =
      errors.size > 0 ? [] : formChanges(settings.getSettings(), submission.outcomes, current, inherit);
    if (errors.size > 0 || changes.length === 0) {
      // No write will tell whether this server may write: ask, so that a form posted to a server
      // that only reads these settings never answers as if it had saved.
      const notice = await readSchemaNotice(settings);
      if (notice !== undefined) return this.#schemaOutdated(request, view, current, notice);
    }
    if (errors.size > 0) {
      const states = new Map(view.states);
      for (const [id, message] of errors) {
        const state = states.get(id);
        if (state && edited.has(id)) states.set(id, { ...state, error: message });
      }
      return htmlResponse(request, this.#renderDocument({ ...view, states, errors }), 400);
    }

    try {
      // One atomic step: no reader, in any instance, sees part of the form.
      if (changes.length > 0) {
        await settings.level(scope).updateValues(changes, { actor: { id: user.id }, via: 'admin' });
      }
    } catch (error) {
      if (error instanceof SchemaOutdatedError) {
        return this.#schemaOutdated(request, view, current, schemaNotice(error.stored, error.schemaVersion));
      }
      // What refused the save may be the host's own code (an `updateValue` override), whose
      // message may quote a typed secret: those messages are checked against them.
      return this.#saveFailed(request, { ...view, typedSecrets: submission.typedSecrets }, error);
    }
    // Relative to the page (its own path, a new query), so it holds under a mount prefix.
    const query = scope === '' ? '' : `scope=${encodeURIComponent(scope)}&`;
    return seeOther(`?${query}${SAVED_FLAG}=true`);
  }

  /** The form again, after a save the settings layer or the store refused. */
  #saveFailed(request: Request, view: SettingsView, error: unknown): Promise<Response> {
    if (error instanceof ScopeNotFoundError) return this.#scopeNotFound(request, error.scope);
    const partial = error instanceof OptionStoreError && error.cause instanceof PartialWriteError;
    const outcome = partial
      ? 'Some settings may have been saved before the failure and could not be put back (this store cannot save a form in one step): check them.'
      : 'Nothing was saved.';
    if (error instanceof BatchRejectedError) {
      const errors = new Map(error.failures.map((failure) => [failure.id, failure.error.message]));
      const states = new Map(view.states);
      for (const [id, message] of errors) {
        const state = states.get(id);
        if (state) states.set(id, { ...state, error: message });
      }
      const status = Math.max(
        ...error.failures.map((failure) =>
          failure.error.code >= 400 && failure.error.code < 500 ? failure.error.code : 400,
        ),
      );
      return htmlResponse(request, this.#renderDocument({ ...view, states, errors }), status);
    }
    if (error instanceof SettingsRulesError) {
      // Each message at its field, like a value error; a problem about no field, at the top.
      const { atFields, atTop } = placeRuleProblems(error.errors, new Set(view.states.keys()));
      const states = new Map(view.states);
      for (const [id, message] of atFields) states.set(id, { ...states.get(id)!, error: message });
      const problem = atTop.length > 0 ? `The settings were not saved: ${atTop.join(' ')}` : undefined;
      return htmlResponse(
        request,
        this.#renderDocument({
          ...view,
          states,
          errors: atFields,
          ...(problem === undefined ? {} : { problem }),
        }),
        400,
      );
    }
    if (error instanceof Framework_Plugin_Exception && error.code >= 400 && error.code < 500) {
      return htmlResponse(
        request,
        this.#renderDocument({ ...view, problem: `${error.message} ${outcome}` }),
        error.code,
      );
    }
    const storeFailed = error instanceof OptionStoreError;
    const problem = storeFailed
      ? `The settings store is not answering. ${outcome} Try again in a moment.`
      : `The settings could not be saved. ${outcome}`;
    return htmlResponse(request, this.#renderDocument({ ...view, problem }), storeFailed ? 503 : 500);
  }

  #renderFormHtml(view: SettingsView): string {
    const fields = this.#fields.getFields();
    if (fields.length === 0) return '<div class="card"><p>This plugin has no settings.</p></div>';
    if (view.readOnly !== undefined) {
      // No form that pretends to work: the values, every control disabled, nothing to send.
      const label = `${this.#plugin.getName()} settings (read only)`;
      return `<fieldset class="read-only-fields" disabled><legend class="visually-hidden">${escapeHtml(label)}</legend>
<div class="card field-list">
${this.#fields.renderFields(view.states)}
</div>
</fieldset>`;
    }
    return `<form class="settings-form" method="post" action="${escapeHtml(view.action)}" enctype="application/x-www-form-urlencoded" accept-charset="utf-8" aria-label="${escapeHtml(
      `${this.#plugin.getName()} settings`,
    )}">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(view.csrfToken)}">
<div class="card field-list">
${this.#fields.renderFields(view.states)}
</div>
<div class="form-actions"><button type="submit" class="button-primary">Save changes</button></div>
</form>`;
  }

  /** `view` with a link to each field's history view at the page's level, when the store keeps history. */
  #withHistoryLinks(view: SettingsView): SettingsView {
    const pagePath = view.pagePath;
    if (pagePath === undefined || !this.#fields.getSettingsHandler().storeCapabilities().history) return view;
    const history = relativeHref(pagePath, adminHistoryPath(this.#plugin.getId()));
    const scope = view.scope ?? '';
    const states = new Map(
      [...view.states].map(([id, state]) => [
        id,
        { ...state, history: `${history}${historyQuery(id, scope)}` },
      ]),
    );
    return { ...view, states };
  }

  #renderDocument(shown: SettingsView): string {
    // The messages of a refused save are checked against the typed secrets, once, here.
    const view = this.#withHistoryLinks(withoutSecretEchoes(shown));
    let notices = '';
    if (view.saved) notices += '<div class="notice" role="status"><p>Settings saved</p></div>\n';
    if (view.restored) notices += '<div class="notice" role="status"><p>Restored</p></div>\n';
    if (view.readOnly !== undefined) {
      notices += `<div class="notice notice-warning" role="alert"><p>${escapeHtml(view.readOnly)}</p></div>\n`;
    }
    if (view.problem) {
      notices += `<div class="notice notice-error" role="alert"><p>${escapeHtml(view.problem)}</p></div>\n`;
    }
    if (view.errors && view.errors.size > 0) notices += this.#renderErrorSummary(view.errors);
    const name = this.#plugin.getName();
    const scope = view.scope ?? '';
    return renderAdminDocument({
      title: `${name} settings${scope === '' ? '' : ` (${scope})`}`,
      heading: name,
      subtitle: scope === '' ? 'Settings' : `Settings of scope ${scope}`,
      nav: this.#nav('settings', view.pagePath ?? this.getPath()),
      bodyHtml: `${notices}${this.#fields.getFields().length > 0 ? renderScopeSwitcher(scope) : ''}${this.#renderFormHtml(view)}`,
    });
  }

  #renderErrorSummary(errors: ReadonlyMap<string, string>): string {
    const fields = new Map(this.#fields.getFields().map((field) => [field.setting.getId(), field]));
    const items = [...errors]
      .map(([id, message]) => {
        const field = fields.get(id);
        if (!field) return `<li>${escapeHtml(message)}</li>`;
        const target = widgetRow(field.widget).anchorId(field);
        return `<li><a href="#${escapeHtml(target)}">${escapeHtml(field.label)}</a>: ${escapeHtml(message)}</li>`;
      })
      .join('');
    const count = errors.size === 1 ? 'One field needs' : `${errors.size} fields need`;
    return `<div class="notice notice-error error-summary" role="alert"><h2>The settings were not saved. ${count} attention:</h2><ul>${items}</ul></div>\n`;
  }
}
