import { IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { AUTHORIZATION } from '../fixtures/bench-auth';
import { settingId } from '../fixtures/bench-settings';
import { bareNodeListener, nodeAdapterListener } from '../fixtures/http-apps';
import { SETTINGS_PATH } from '../fixtures/settings-routes';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput } from '../harness/scenario';
import { timeRow } from '../harness/time-row';
import { loadedSettings } from '../servers/settings-service';

const PATH = `${SETTINGS_PATH}/${settingId(4)}`;
const OPS = 50;

/** A socket that accepts every write and never reads: the response is serialised by node:http, then dropped. */
class DiscardingSocket extends Duplex {
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    done();
  }
  override _writev(_chunks: unknown, done: () => void): void {
    done();
  }
}

/** One GET through a request listener, without a network: resolves when the response is finished. */
function callListener(listener: RequestListener, sink: { body: string }): Promise<void> {
  const socket = new DiscardingSocket() as unknown as Socket;
  const request = new IncomingMessage(socket);
  request.method = 'GET';
  request.url = PATH;
  request.headers = { host: '127.0.0.1:3000', authorization: AUTHORIZATION, connection: 'keep-alive' };
  request.rawHeaders = ['Host', '127.0.0.1:3000', 'Authorization', AUTHORIZATION, 'Connection', 'keep-alive'];
  request.complete = true;
  request.push(null);
  const response = new ServerResponse(request);
  response.assignSocket(socket);
  const end = response.end.bind(response);
  response.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string') sink.body = chunk;
    return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as typeof response.end;
  return new Promise((resolve) => {
    response.on('finish', () => resolve());
    listener(request, response);
  });
}

/**
 * A diagnostic without a target: the cost of one GET of a setting inside the server process,
 * without sockets, so the kernel's share (the largest part of an HTTP request on loopback)
 * and the load generator do not hide the library's own share: the node:http request listeners
 * called with an `IncomingMessage` and a `ServerResponse` on a discarding socket. (Fastify's
 * `app.inject` was tried for the Fastify pair and left out: its own allocations make the
 * rounds vary 10×.)
 */
export const handlerCostScenario: Scenario = {
  id: 'handler-cost',
  title: 'per-request cost inside the server, without sockets',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const loaded = await loadedSettings();
    const options = {
      opsPerCall: OPS,
      rounds: settings.rounds,
      timeMs: settings.timeMs,
      warmupMs: settings.warmupMs,
    };

    const adapter = nodeAdapterListener(loaded);
    const bare = bareNodeListener(loaded);
    const ours = { body: '' };
    const theirs = { body: '' };
    await callListener(adapter, ours);
    await callListener(bare, theirs);
    if (ours.body === '' || ours.body !== theirs.body) {
      throw new Error(`handler-cost: the node listeners answer differently (${ours.body} / ${theirs.body})`);
    }
    const node = await compareInterleaved(
      {
        label: 'toNodeHandler(server)',
        run: async () => {
          for (let n = 0; n < OPS; n++) await callListener(adapter, ours);
        },
      },
      {
        label: 'bare node:http handler',
        run: async () => {
          for (let n = 0; n < OPS; n++) await callListener(bare, theirs);
        },
      },
      options,
    );

    return {
      rows: [
        timeRow(
          {
            id: 'handler-node',
            table: 'diagnostics',
            title: 'node:http listener, GET one setting, no socket',
          },
          node,
        ),
      ],
    };
  },
};
