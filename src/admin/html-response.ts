import { ADMIN_STYLES } from './admin-styles';

let styleHash: Promise<string> | null = null;

/** The CSP source of {@link ADMIN_STYLES}: `'sha256-…'` of its UTF-8 text. */
export function adminStyleHashSource(): Promise<string> {
  styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(ADMIN_STYLES)).then((digest) => {
    let binary = '';
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

/**
 * The security headers of every admin HTML response: no caching, no framing, no sniffing,
 * and a Content-Security-Policy that allows nothing but the page's own stylesheet (by hash)
 * and form posts to this origin.
 */
export async function adminSecurityHeaders(): Promise<Record<string, string>> {
  const csp = [
    "default-src 'none'",
    `style-src ${await adminStyleHashSource()}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

/** An HTML response with the admin security headers; `HEAD` requests get the headers without the body. */
export async function htmlResponse(
  request: Request,
  html: string,
  status: number,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers = { ...(await adminSecurityHeaders()), ...extraHeaders };
  return new Response(request.method === 'HEAD' ? null : html, { status, headers });
}

/** A `303 See Other` to `location`, with the admin security headers. */
export async function seeOther(location: string): Promise<Response> {
  const headers = { ...(await adminSecurityHeaders()), Location: location };
  return new Response(null, { status: 303, headers });
}
