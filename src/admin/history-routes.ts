import { Framework_Plugin_Exception } from '../errors/framework-plugin-exception';
import type { AdminRequestContext } from '../rest/admin-hook';
import { PlanConflictError, PlanRefusedError, type SettingsPlan } from '../settings/config/settings-plan';
import { SettingsRulesError } from '../settings/rules/rules-error';
import { SchemaOutdatedError } from '../settings/schema-versions/schema-outdated';
import { ScopeNotFoundError } from '../settings/scope/scope-not-found';
import {
  adminHistoryPath,
  adminRestorePath,
  adminSettingsPath,
  historyQuery,
  relativeHref,
} from './admin-paths';
import { createCsrfToken } from './csrf-token';
import { RESTORE_ENTRY_FIELD, renderHistoryPager, renderHistoryTable } from './history-table';
import { escapeHtml } from './html-escape';
import { htmlResponse, seeOther } from './html-response';
import { type AdminNavLink, renderAdminDocument } from './page-layout';
import { RESTORE_PLAN_FIELD, renderRestorePreview } from './restore-preview';
import { readSchemaNotice, schemaNotice } from './schema-notice';
import type { Framework_Register_Settings_Fields } from './settings-fields';
import type { AdminSettingsPlugin } from './settings-page';

/** How many history entries one page of the history view shows. */
export const HISTORY_PAGE_SIZE = 20;

/** The query flag of the settings page after a restore was applied: it shows "Restored". */
export const RESTORED_FLAG = 'restored';

/** The longest history entry id a restore accepts (ids are 24 characters). */
const MAX_ENTRY_LENGTH = 200;

/** What the history view needs of the settings page it belongs to. */
export interface HistoryRoutesHost {
  /** The plugin the page belongs to. */
  readonly plugin: AdminSettingsPlugin;
  /** The page's fields (their settings handler, labels). */
  readonly fields: Framework_Register_Settings_Fields;
  /** The name of the hidden CSRF field. */
  readonly csrfField: string;
  /** A short page that only says something, with the page's admin bar. */
  message(request: Request, status: number, title: string, text: string): Promise<Response>;
  /** The admin bar's links from the page at `pagePath`. */
  nav(pagePath: string): AdminNavLink[];
  /** The scope the request addresses once it is valid and the user may reach it, else the refusal (400, 403). */
  scopeOf(request: Request, context: AdminRequestContext, url: URL): Promise<string | Response>;
  /** A posted form once its encoding, size and CSRF token are checked, else the refusal. */
  readPostedForm(request: Request, context: AdminRequestContext): Promise<URLSearchParams | Response>;
}

/** The setting and level a history request is about. */
interface HistoryTarget {
  readonly id: string;
  readonly label: string;
  readonly scope: string;
}

/** A restore post, once read and checked: what its answer is about. */
interface RestoreAsk {
  readonly request: Request;
  readonly context: AdminRequestContext;
  readonly url: URL;
  readonly target: HistoryTarget;
  /** The history entry to restore to. */
  readonly entry: string;
}

/**
 * The history view of one setting at one level (`GET /admin/settings/{pluginId}/history?setting=
 * <id>&scope=<path>`, newest first, {@link HISTORY_PAGE_SIZE} entries a page) and its "Restore to
 * here" (`POST /admin/settings/{pluginId}/restore`): a first post previews the plan
 * `planRestore({ to: entry, scope, settingIds: [id] })`; "Apply" posts the plan's id back, and the
 * server plans again and applies only when the fresh plan's id is the previewed one (the plan,
 * which carries secrets sealed, never goes through the browser). Both need what the settings page
 * needs: the management capability (checked by the page), `canAccessScope` for the level, and a
 * CSRF token for the posts.
 */
export class HistoryRoutes {
  readonly #host: HistoryRoutesHost;

  /** @param host - the settings page the view belongs to */
  constructor(host: HistoryRoutesHost) {
    this.#host = host;
  }

  /** `GET …/history`: one page of the setting's history at the level. */
  async serveHistory(request: Request, context: AdminRequestContext, url: URL): Promise<Response> {
    const target = await this.#target(request, context, url);
    if (target instanceof Response) return target;
    const pageText = url.searchParams.get('page') ?? '1';
    const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : 0;
    if (page === 0) {
      return this.#host.message(
        request,
        400,
        'Unknown page',
        'The page of the history must be a whole number from 1.',
      );
    }
    const settings = this.#host.fields.getSettingsHandler();
    const { entries, total } = await settings.level(target.scope).getHistoryPage({
      settingId: target.id,
      limit: HISTORY_PAGE_SIZE,
      offset: (page - 1) * HISTORY_PAGE_SIZE,
    });
    const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
    if (page > pages) {
      return this.#host.message(
        request,
        404,
        'Unknown page',
        `This history has ${pages} page${pages === 1 ? '' : 's'}.`,
      );
    }
    const readOnly = await readSchemaNotice(settings);
    const csrfToken = await createCsrfToken(context.csrfSecret, context.user!.id, {
      sessionId: context.sessionId,
    });
    const pagePath = url.pathname;
    const pluginId = this.#host.plugin.getId();
    const restore =
      readOnly === undefined
        ? {
            action: `${relativeHref(pagePath, adminRestorePath(pluginId))}${historyQuery(target.id, target.scope)}`,
            csrfField: this.#host.csrfField,
            csrfToken,
          }
        : undefined;
    const notice =
      readOnly === undefined
        ? ''
        : `<div class="notice notice-warning" role="alert"><p>${escapeHtml(readOnly)}</p></div>\n`;
    const historyHref = (n: number) =>
      `${relativeHref(pagePath, adminHistoryPath(pluginId))}${historyQuery(target.id, target.scope, n)}`;
    const bodyHtml = `${notice}${this.#backLink(pagePath, target.scope)}${renderHistoryPager(page, pages, historyHref)}${renderHistoryTable(
      { label: target.label, entries, ...(restore === undefined ? {} : { restore }) },
    )}${renderHistoryPager(page, pages, historyHref)}`;
    return this.#document(request, 200, target, `History of ${target.label}`, pagePath, bodyHtml);
  }

  /** `POST …/restore`: the preview of restoring to an entry, or (with the previewed plan's id) applying it. */
  async handleRestore(request: Request, context: AdminRequestContext, url: URL): Promise<Response> {
    const form = await this.#host.readPostedForm(request, context);
    if (form instanceof Response) return form;
    const target = await this.#target(request, context, url);
    if (target instanceof Response) return target;
    const entry = form.get(RESTORE_ENTRY_FIELD) ?? '';
    if (entry === '' || entry.length > MAX_ENTRY_LENGTH) {
      return this.#host.message(
        request,
        400,
        'Unknown history entry',
        'The form names no history entry to restore to. Nothing was restored.',
      );
    }
    const settings = this.#host.fields.getSettingsHandler();
    const readOnly = await readSchemaNotice(settings);
    if (readOnly !== undefined) return this.#readOnly(request, target, url.pathname, readOnly);
    const ask: RestoreAsk = { request, context, url, target, entry };
    let plan = await this.#plan(target, entry);
    if (plan === null) return this.#unknownEntry(request);
    const previewed = form.get(RESTORE_PLAN_FIELD);
    if (previewed === null) return this.#preview(ask, plan, 200);
    if (previewed !== plan.id) {
      return this.#preview(ask, plan, 412, {
        changed: true,
      });
    }
    if (plan.errors.length > 0) return this.#preview(ask, plan, 400);
    try {
      await settings.applyPlan(plan, { actor: { id: context.user!.id } });
    } catch (error) {
      if (error instanceof PlanConflictError) {
        // Changed between this plan and its commit: the fresh plan, to check and apply again.
        plan = await this.#plan(target, entry);
        if (plan === null) return this.#unknownEntry(request);
        return this.#preview(ask, plan, 412, { changed: true });
      }
      if (error instanceof SettingsRulesError) {
        const problems = error.errors.map(
          (problem) =>
            `${problem.id === '' ? 'These settings' : this.#labelOf(problem.id)}: ${problem.message}`,
        );
        return this.#preview(ask, plan, 400, { problems });
      }
      if (error instanceof PlanRefusedError) {
        return this.#preview(ask, plan, 400, {
          problems: ['The settings refused this plan, so nothing was restored.'],
        });
      }
      if (error instanceof SchemaOutdatedError) {
        return this.#readOnly(request, target, url.pathname, schemaNotice(error.stored, error.schemaVersion));
      }
      throw error;
    }
    // Back to the settings page of the level, which says "Restored".
    const scoped = target.scope === '' ? '' : `scope=${encodeURIComponent(target.scope)}&`;
    return seeOther(`${relativeHref(url.pathname, this.#settingsPath())}?${scoped}${RESTORED_FLAG}=true`);
  }

  #settingsPath(): string {
    return adminSettingsPath(this.#host.plugin.getId());
  }

  #labelOf(id: string): string {
    const field = this.#host.fields.getFields().find((candidate) => candidate.setting.getId() === id);
    return field?.label ?? id;
  }

  /** The setting (`?setting=`) and the level (`?scope=`) of a request, or the refusal (400, 403, 404, 501). */
  async #target(request: Request, context: AdminRequestContext, url: URL): Promise<HistoryTarget | Response> {
    const scope = await this.#host.scopeOf(request, context, url);
    if (scope instanceof Response) return scope;
    const id = url.searchParams.get('setting') ?? '';
    const settings = this.#host.fields.getSettingsHandler();
    if (id === '' || settings.getSetting(id) === undefined) {
      return this.#host.message(
        request,
        404,
        'Unknown setting',
        id === ''
          ? 'The address names no setting: open the history from a field of the settings page.'
          : `These settings have no setting “${id}”.`,
      );
    }
    if (!settings.storeCapabilities().history) {
      return this.#host.message(
        request,
        501,
        'No history',
        'The settings store keeps no history, so there is nothing to show or restore.',
      );
    }
    return { id, label: this.#labelOf(id), scope };
  }

  /** The restore plan of the target to `entry`, or `null` for an entry the history does not know. */
  async #plan(target: HistoryTarget, entry: string): Promise<SettingsPlan | null> {
    try {
      return await this.#host.fields.getSettingsHandler().planRestore({
        to: entry,
        scope: target.scope === '' ? null : target.scope,
        settingIds: [target.id],
      });
    } catch (error) {
      // An unknown scope is the page's 404 (it says which); an unknown `to`, this one's.
      if (error instanceof ScopeNotFoundError) throw error;
      if (error instanceof Framework_Plugin_Exception && error.code === 404) return null;
      throw error;
    }
  }

  #unknownEntry(request: Request): Promise<Response> {
    return this.#host.message(
      request,
      404,
      'Unknown history entry',
      'The history has no such entry (it may have been trimmed). Nothing was restored.',
    );
  }

  /** The preview of `plan` (with "Apply" when it may be applied); `changed`: it is not the plan previewed before. */
  async #preview(
    ask: RestoreAsk,
    plan: SettingsPlan,
    status: number,
    options: { readonly changed?: boolean; readonly problems?: readonly string[] } = {},
  ): Promise<Response> {
    const { request, context, url, target, entry } = ask;
    const pagePath = url.pathname;
    const csrfToken = await createCsrfToken(context.csrfSecret, context.user!.id, {
      sessionId: context.sessionId,
    });
    const query = historyQuery(target.id, target.scope);
    const changed = options.changed
      ? '<div class="notice notice-error" role="alert"><p>The settings changed since the preview, so nothing was restored. This is what restoring changes now: check it and apply it again.</p></div>\n'
      : '';
    const intro = `<p>Restoring brings ${escapeHtml(target.label)} back to the value it had right after the chosen change.</p>\n`;
    const bodyHtml = `${changed}${intro}${renderRestorePreview({
      plan,
      entry,
      labelOf: (id) => this.#labelOf(id),
      apply: {
        action: `${relativeHref(pagePath, adminRestorePath(this.#host.plugin.getId()))}${query}`,
        csrfField: this.#host.csrfField,
        csrfToken,
      },
      cancelHref: `${relativeHref(pagePath, adminHistoryPath(this.#host.plugin.getId()))}${query}`,
      ...(options.problems === undefined ? {} : { problems: options.problems }),
    })}`;
    return this.#document(request, status, target, `Restore ${target.label}`, pagePath, bodyHtml);
  }

  /** The answer to a restore while the stored schema version is not this server's (409). */
  #readOnly(request: Request, target: HistoryTarget, pagePath: string, notice: string): Promise<Response> {
    const bodyHtml = `<div class="notice notice-warning" role="alert"><p>${escapeHtml(`Nothing was restored. ${notice}`)}</p></div>\n${this.#backLink(pagePath, target.scope)}`;
    return this.#document(request, 409, target, `Restore ${target.label}`, pagePath, bodyHtml);
  }

  #backLink(pagePath: string, scope: string): string {
    const page = relativeHref(pagePath, this.#settingsPath());
    const href = scope === '' ? page : `${page}?scope=${encodeURIComponent(scope)}`;
    return `<p class="back-link"><a href="${escapeHtml(href)}">Back to the settings</a></p>\n`;
  }

  #document(
    request: Request,
    status: number,
    target: HistoryTarget,
    heading: string,
    pagePath: string,
    bodyHtml: string,
  ): Promise<Response> {
    const name = this.#host.plugin.getName();
    const level = target.scope === '' ? 'the global level' : `scope ${target.scope}`;
    const html = renderAdminDocument({
      title: `${heading} (${name}, ${level})`,
      heading,
      subtitle: `${name} settings, ${level}`,
      nav: this.#host.nav(pagePath),
      bodyHtml,
    });
    return htmlResponse(request, html, status);
  }
}
