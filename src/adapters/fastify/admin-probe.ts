import type { RestExchange } from '../../rest/http/exchange';
import type { RestServer } from '../../rest/server';

const PROBE_URL = 'http://localhost/admin/status';

/**
 * Whether the server serves admin pages (`createRestServer({ admin })`), found by asking it
 * for the status screen as an anonymous client: a server with admin pages answers with a page
 * (a 401 one), a server without them with the REST 404. Runs once, at plugin registration.
 */
export async function servesAdminPages(server: RestServer): Promise<boolean> {
  const probe: RestExchange = {
    method: 'GET',
    url: PROBE_URL,
    pathname: '/admin/status',
    search: '',
    header: () => null,
    headers: new Headers(),
    readBody: () => null,
    toRequest: () => new Request(PROBE_URL),
  };
  const result = await server.handleExchange(probe);
  if (result.kind !== 'response') return false;
  await result.response.body?.cancel();
  return true;
}
