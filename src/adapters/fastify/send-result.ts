import type { FastifyReply } from 'fastify';
import type { RestResult } from '../../rest/http/rest-result';

/**
 * Sends a pipeline result through a Fastify reply (so the app's `onSend` and `onResponse`
 * hooks still run): status and headers as `server.fetch` answers them, the JSON text as it is
 * (Fastify sends a string with a JSON content type without serialising it again).
 *
 * @param closeConnection - ask for the connection to close after the answer (the request body
 *   was left unread, e.g. after a 413)
 */
export function sendResult(
  reply: FastifyReply,
  result: RestResult,
  isHead: boolean,
  closeConnection: boolean,
): FastifyReply {
  if (closeConnection) reply.header('connection', 'close');
  if (result.kind === 'json') {
    reply.code(result.status).headers(result.headers);
    return result.body === null ? reply.send() : reply.send(result.body);
  }
  const { response } = result;
  reply.code(response.status);
  for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (response.body === null || isHead) {
    void response.body?.cancel();
    return reply.send();
  }
  return reply.send(response.body);
}
