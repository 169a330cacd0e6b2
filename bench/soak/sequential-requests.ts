/**
 * One request at a time over one keep-alive connection to a soak server: the latency of each
 * kind of request the demo answers — a write, a read, a refusal, a validation error — without
 * the queueing of a load run, so that what a single request costs on each side can be compared.
 */
import { Agent, request } from 'node:http';
import { SOAK_TOKEN, type SoakRequest } from './soak-plan';

const SETTINGS = '/api/commerce/v3/acme_pay/settings';
const AUTH = `Bearer ${SOAK_TOKEN}`;

/** A request to time, with the one status it must get (a {@link SequentialKind} or a request of the soak's mix). */
export type SequentialRequest = Omit<SoakRequest, 'name'>;

/** A kind of request the sequential run times, with the one status it must get. */
export interface SequentialKind extends SequentialRequest {
  readonly id: 'write' | 'read' | 'refusal' | 'error';
  /** What it is, for the report. */
  readonly title: string;
}

/** The four kinds, in the order each pass sends them. */
export const SEQUENTIAL_KINDS: readonly SequentialKind[] = [
  {
    id: 'write',
    title: 'PUT a string setting (200)',
    method: 'PUT',
    path: `${SETTINGS}/title`,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ value: `Acme Pay ${n}` }),
    expected: 200,
  },
  {
    id: 'read',
    title: 'GET one setting (200)',
    method: 'GET',
    path: `${SETTINGS}/title`,
    headers: { authorization: AUTH },
    expected: 200,
  },
  {
    id: 'refusal',
    title: 'GET the settings without a token (401)',
    method: 'GET',
    path: SETTINGS,
    headers: {},
    expected: 401,
  },
  {
    id: 'error',
    title: 'PUT an invalid integer (400)',
    method: 'PUT',
    path: `${SETTINGS}/max_retries`,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: () => '{"value":"three"}',
    expected: 400,
  },
];

/** A client holding one keep-alive connection to one server. */
export class SequentialClient {
  readonly #url: URL;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  #count = 0;

  /** @param url - the server's base URL (127.0.0.1) */
  constructor(url: string) {
    this.#url = new URL(url);
  }

  /** Sends one request of `kind` and resolves with its latency in ms (request start to the end of the body). */
  send(kind: SequentialRequest): Promise<number> {
    const body = kind.body?.(++this.#count);
    const headers: Record<string, string> = { ...kind.headers };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          method: kind.method,
          path: kind.path,
          headers,
          agent: this.#agent,
        },
        (response) => {
          response.resume();
          response.once('end', () => {
            const elapsed = performance.now() - started;
            if (response.statusCode !== kind.expected)
              reject(
                new Error(`${kind.method} ${kind.path}: ${response.statusCode}, expected ${kind.expected}`),
              );
            else resolve(elapsed);
          });
          response.once('error', reject);
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  }

  /** Sends `passes` passes of every kind in turn; the latencies in ms by kind. */
  async run(passes: number): Promise<Map<SequentialKind['id'], number[]>> {
    const samples = new Map<SequentialKind['id'], number[]>(SEQUENTIAL_KINDS.map((kind) => [kind.id, []]));
    for (let pass = 0; pass < passes; pass++) {
      for (const kind of SEQUENTIAL_KINDS) samples.get(kind.id)!.push(await this.send(kind));
    }
    return samples;
  }

  /** Sends `passes` passes of `requests` in turn; the latencies in ms, by index in `requests`. */
  async runEach(requests: readonly SequentialRequest[], passes: number): Promise<number[][]> {
    const samples = requests.map((): number[] => []);
    for (let pass = 0; pass < passes; pass++) {
      for (const [index, each] of requests.entries()) samples[index]!.push(await this.send(each));
    }
    return samples;
  }

  /** Closes the connection. */
  close(): void {
    this.#agent.destroy();
  }
}
