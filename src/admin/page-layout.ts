import { ADMIN_STYLES } from './admin-styles';
import { escapeHtml } from './html-escape';

/** A link of the admin bar. */
export interface AdminNavLink {
  readonly label: string;
  readonly href: string;
  /** Marks the link of the page being shown (`aria-current="page"`). */
  readonly current?: boolean;
}

/** What one admin page is made of; every text is plain text (escaped here), `bodyHtml` is trusted HTML. */
export interface AdminDocument {
  /** The document title (`<title>`), e.g. "Acme Payments settings". */
  readonly title: string;
  /** The page's `<h1>`. */
  readonly heading: string;
  /** A line under the heading. */
  readonly subtitle?: string;
  /** Links of the admin bar. */
  readonly nav?: readonly AdminNavLink[];
  /** The page content, already rendered (and escaped) HTML. */
  readonly bodyHtml: string;
}

/** A complete HTML5 admin page: language, viewport, inline stylesheet, skip link, admin bar, main landmark. */
export function renderAdminDocument(page: AdminDocument): string {
  const nav = (page.nav ?? [])
    .map(
      (link) =>
        `<li><a href="${escapeHtml(link.href)}"${link.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a></li>`,
    )
    .join('');
  const subtitle = page.subtitle ? `<p class="page-subtitle">${escapeHtml(page.subtitle)}</p>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(page.title)}</title>
<style>${ADMIN_STYLES}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="admin-bar"><div class="admin-bar-inner"><span class="admin-bar-brand">Commerce admin</span>${
    nav ? `<nav aria-label="Admin"><ul>${nav}</ul></nav>` : ''
  }</div></header>
<main id="main">
<h1>${escapeHtml(page.heading)}</h1>
${subtitle}${page.bodyHtml}
</main>
</body>
</html>
`;
}

/** A link a message page offers as its way on (e.g. "Sign in"). */
export interface MessageAction {
  readonly label: string;
  readonly href: string;
}

/** A short page that only says something (sign-in required, forbidden, unavailable…), with an optional link to act on it. */
export function renderMessageDocument(
  title: string,
  message: string,
  nav?: readonly AdminNavLink[],
  action?: MessageAction,
): string {
  const link =
    action === undefined
      ? ''
      : `<p class="form-actions"><a class="button-primary" href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>`;
  return renderAdminDocument({
    title,
    heading: title,
    nav,
    bodyHtml: `<div class="notice notice-error" role="alert"><p>${escapeHtml(message)}</p></div>${link}`,
  });
}
