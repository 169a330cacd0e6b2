/**
 * Where the "Sign in required" page links: `admin.loginUrl` for the path (and query) to return
 * to. A text URL gets `redirect_to=<path>` added to its query (`/login` →
 * `/login?redirect_to=%2Fadmin%2Fstatus`); a function returns the whole URL.
 *
 * @throws TypeError when a function returns no text
 */
export function loginHref(loginUrl: string | ((returnTo: string) => string), returnTo: string): string {
  if (typeof loginUrl === 'string') {
    return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}redirect_to=${encodeURIComponent(returnTo)}`;
  }
  const href: unknown = loginUrl(returnTo);
  if (typeof href !== 'string' || href === '') {
    throw new TypeError('admin.loginUrl returned no text: it must return the sign-in URL');
  }
  return href;
}
