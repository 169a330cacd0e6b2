import {
  bearerTokenAuth,
  createRestServer,
  MemoryOptionStore,
  type RestServer,
} from 'commerce-plugin-framework';
import { DEMO_USER, generateToken } from './demo-auth';
import { AcmePayGateway } from './gateway-plugin';

/**
 * The REST server the Express, Fastify and Hono examples mount: the demo's Acme Pay gateway on
 * an in-memory store, behind a bearer token.
 */
export function exampleServer(token: string = generateToken()): { server: RestServer; token: string } {
  const server = createRestServer({
    plugins: [new AcmePayGateway(new MemoryOptionStore())],
    authenticate: bearerTokenAuth({ [token]: DEMO_USER }),
  });
  return { server, token };
}

/** The lines an example prints once it listens. */
export function exampleBanner(host: string, url: string, token: string): string {
  return `Acme Pay on ${host} listening on ${url}
Token: ${token}
  curl -H "Authorization: Bearer ${token}" ${url}/api/commerce/v3/acme_pay/settings
Press Ctrl+C to stop.`;
}
