/**
 * Hostile HTTP on the wire: raw `net` sockets against a real `node:http` listener on
 * 127.0.0.1 serving `toNodeHandler(server)`. Here `Content-Length` can lie, bodies can be
 * chunked forever, and request lines and headers can be malformed — things a Fetch `Request`
 * refuses to build. Each case ends in a 4xx (the REST layer's JSON, or Node's own parser
 * answer), the store is unchanged, and the listener keeps serving.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, SETTINGS_PATH, type ShopServer, shopServer, snapshotStore } from './support/shop';

const MAX_BODY = 16 * 1024;

let shop: ShopServer;
let listener: Server;
let port: number;
/** The server side of every connection, by the client's port. */
const serverSockets = new Map<number, Socket>();
let before: Array<[string, string]>;

beforeAll(async () => {
  shop = shopServer({ maxBodyBytes: MAX_BODY });
  listener = createServer(toNodeHandler(shop.server));
  listener.on('connection', (socket) => serverSockets.set(socket.remotePort!, socket));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});

afterAll(async () => {
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

beforeEach(async () => {
  before = await snapshotStore(shop.data);
});

async function expectStoreUnchanged(): Promise<void> {
  expect(await snapshotStore(shop.data)).toEqual(before);
}

/** What came back on one connection. */
interface Wire {
  readonly text: string;
  /** The status of every response on the connection, in order. */
  readonly statuses: number[];
  /** The JSON body of the first response, when it has one. */
  readonly firstJson: { code?: string; data?: { status?: number } } | undefined;
}

function parseWire(text: string): Wire {
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
  const firstBody = text.split('\r\n\r\n')[1] ?? '';
  let firstJson: Wire['firstJson'];
  try {
    firstJson = firstBody.startsWith('{')
      ? JSON.parse(firstBody.slice(0, firstBody.lastIndexOf('}') + 1))
      : undefined;
  } catch {
    firstJson = undefined;
  }
  return { text, statuses, firstJson };
}

/**
 * Writes `payload` on a fresh connection and collects everything the server sends until it
 * closes the connection or `waitMs` passes (then the client closes).
 */
function rawExchange(
  payload: string | Uint8Array,
  options: { halfClose?: boolean; waitMs?: number } = {},
): Promise<Wire> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseWire(Buffer.concat(chunks).toString('latin1')));
    };
    const timer = setTimeout(finish, options.waitMs ?? 2_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.write(payload);
    if (options.halfClose) socket.end();
  });
}

/** A request as text: request line, headers (CRLF), blank line, body. */
function request(line: string, headers: Record<string, string | number>, body = ''): string {
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${line}\r\nHost: 127.0.0.1\r\n${head}\r\n${body}`;
}

const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** The listener still answers a plain request correctly. */
async function expectStillServing(): Promise<void> {
  const wire = await rawExchange(
    request(`GET ${SETTINGS_PATH}/title HTTP/1.1`, { ...auth, Connection: 'close' }),
  );
  expect(wire.statuses).toEqual([200]);
  expect(wire.text).toContain('"id":"title"');
}

describe('Content-Length that lies', () => {
  it('shorter than the body: only Content-Length bytes are the body; the rest is a malformed next request (400), nothing is written', async () => {
    const body = '{"value":"smuggled"}';
    const wire = await rawExchange(
      request(
        `PUT ${SETTINGS_PATH}/title HTTP/1.1`,
        { ...auth, 'Content-Type': 'application/json', 'Content-Length': 5 },
        body,
      ),
    );
    // `{"val` is the body (400 rest_invalid_json); `ue":"smuggled"}` is parsed as the next
    // request line, which Node's parser refuses with its own 400 and closes the connection —
    // possibly before the first answer was written.
    expect(wire.statuses.length).toBeGreaterThan(0);
    expect(wire.statuses.every((status) => status === 400)).toBe(true);
    await expectStoreUnchanged();
    await expectStillServing();
  });

  it('shorter than the body, with a request hidden in the rest: the hidden request is answered as its own request', async () => {
    const hidden = request(
      `PUT ${SETTINGS_PATH}/retries HTTP/1.1`,
      { 'Content-Type': 'application/json', 'Content-Length': 12, Connection: 'close' },
      '{"value":42}',
    );
    const outer = `{"value":"x"}`;
    const wire = await rawExchange(
      request(
        `PUT ${SETTINGS_PATH}/title HTTP/1.1`,
        { ...auth, 'Content-Type': 'application/json', 'Content-Length': outer.length },
        outer + hidden,
      ),
    );
    // The first request is complete and authorised; the hidden one carries no credentials.
    expect(wire.statuses).toEqual([200, 401]);
    expect(await shop.data.get('framework_shop_retries')).toBe('5');
    await shop.data.set('framework_shop_title', 'Original title');
  });

  it('longer than the body, then the client closes: nothing is written and the listener survives', async () => {
    await rawExchange(
      request(
        `PUT ${SETTINGS_PATH}/title HTTP/1.1`,
        { ...auth, 'Content-Type': 'application/json', 'Content-Length': 1000 },
        '{"value":"partial"}',
      ),
      { halfClose: true, waitMs: 500 },
    );
    await expectStoreUnchanged();
    await expectStillServing();
  });

  it('longer than the body, and the client just waits: nothing is written while the body is incomplete', async () => {
    const wire = await rawExchange(
      request(
        `PUT ${SETTINGS_PATH}/title HTTP/1.1`,
        { ...auth, 'Content-Type': 'application/json', 'Content-Length': 1000 },
        '{"value":"partial"}',
      ),
      { waitMs: 300 },
    );
    expect(wire.statuses).toEqual([]);
    await expectStoreUnchanged();
    await expectStillServing();
  });

  it('claiming more than maxBodyBytes while sending more: 413 rest_body_too_large', async () => {
    const body = `{"value":"${'x'.repeat(MAX_BODY)}"}`;
    const wire = await rawExchange(
      request(
        `PUT ${SETTINGS_PATH}/title HTTP/1.1`,
        { ...auth, 'Content-Type': 'application/json', 'Content-Length': body.length },
        body,
      ),
    );
    expect(wire.statuses[0]).toBe(413);
    expect(wire.firstJson?.code).toBe('rest_body_too_large');
    await expectStoreUnchanged();
  });

  it('two different Content-Length headers, or Content-Length with Transfer-Encoding: refused by the parser (400)', async () => {
    const duplicate = `PUT ${SETTINGS_PATH}/title HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 17\r\nContent-Length: 5\r\n\r\n{"value":"dupe"}`;
    expect((await rawExchange(duplicate)).statuses).toEqual([400]);
    const both = `PUT ${SETTINGS_PATH}/title HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 17\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n{"value":"chunk"}\r\n0\r\n\r\n`;
    expect((await rawExchange(both)).statuses[0]).toBe(400);
    await expectStoreUnchanged();
    await expectStillServing();
  });
});

describe('chunked bodies over the limit', () => {
  it('an endless chunked body is answered 413 and the server stops reading (it reads far less than was sent)', async () => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    let failed = false;
    socket.on('error', () => {
      failed = true;
    });
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const clientPort = socket.localPort;
    socket.write(
      `PUT ${SETTINGS_PATH}/title HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
    const limit = 32 * 1024 * 1024;
    let sent = 0;
    while (sent < limit && !closed && !failed) {
      if (!socket.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => resolve();
          socket.once('drain', done);
          socket.once('close', done);
          setTimeout(done, 200);
        });
      }
      sent += chunk.length;
    }
    socket.destroy();
    const wire = parseWire(Buffer.concat(received).toString('latin1'));
    // The server answers 413 and closes. Closing with the rest of the body unread makes the
    // kernel send a reset, which may race the answer on the client side: when the answer
    // arrived, it is the 413, and it announced the close.
    expect(wire.statuses.every((status) => status === 413)).toBe(true);
    if (wire.statuses.length > 0) {
      expect(wire.firstJson?.code).toBe('rest_body_too_large');
      expect(wire.text.toLowerCase()).toContain('connection: close');
    }
    const serverSide = serverSockets.get(clientPort!);
    expect(serverSide).toBeDefined();
    // The client got through far less than it wanted to send; the server read only a little more than the limit.
    expect(sent).toBeLessThan(limit);
    expect(serverSide!.bytesRead).toBeLessThan(4 * 1024 * 1024);
    await expectStoreUnchanged();
    await expectStillServing();
  });
});

describe('request lines and headers', () => {
  it('a 100 kB request target is refused by the parser (431) before any code of ours runs', async () => {
    const wire = await rawExchange(
      request(`GET /api/${'a'.repeat(100_000)} HTTP/1.1`, { ...auth, Connection: 'close' }),
    );
    expect(wire.statuses).toEqual([431]);
    await expectStillServing();
  });

  it('dot segments are resolved before routing, exactly as for a Fetch Request', async () => {
    const cases: Array<[string, number, string]> = [
      [`${SETTINGS_PATH}/retries/../title`, 200, '"id":"title"'],
      [`${SETTINGS_PATH}/retries/%2e%2e/title`, 200, '"id":"title"'],
      [`${SETTINGS_PATH}/../../../../../etc/passwd`, 404, 'rest_no_route'],
      [`${SETTINGS_PATH}/..%2Fretries`, 404, 'rest_setting_not_found'],
      [`${SETTINGS_PATH}/title%2F..%2F..%2Fother`, 404, 'rest_setting_not_found'],
      [`${SETTINGS_PATH}/..\\retries`, 404, 'rest_no_route'],
    ];
    for (const [target, status, marker] of cases) {
      const wire = await rawExchange(request(`GET ${target} HTTP/1.1`, { ...auth, Connection: 'close' }));
      expect([target, wire.statuses[0]]).toEqual([target, status]);
      expect(wire.text).toContain(marker);
    }
  });

  it('a bare CR or LF inside a header value is refused by the parser; nothing is reflected', async () => {
    for (const injected of ['a\rSet-Cookie: injected=1', 'a\nSet-Cookie: injected=1', 'a\u0000b']) {
      const wire = await rawExchange(
        `GET ${SETTINGS_PATH}/title HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nX-Evil: ${injected}\r\nConnection: close\r\n\r\n`,
      );
      expect(wire.statuses[0]).toBe(400);
      expect(wire.text.toLowerCase()).not.toContain('injected');
    }
    await expectStillServing();
  });

  it('header values and an encoded CR/LF in the path never reach the response headers', async () => {
    const wire = await rawExchange(
      request(`GET ${SETTINGS_PATH}/x%0d%0aSet-Cookie:%20injected=1 HTTP/1.1`, {
        ...auth,
        Origin: 'https://injected.example',
        'X-Forwarded-Host': 'injected.example',
        Connection: 'close',
      }),
    );
    expect(wire.statuses).toEqual([404]);
    const head = wire.text.split('\r\n\r\n')[0]!.toLowerCase();
    expect(head).not.toContain('injected');
    expect(head).not.toContain('set-cookie');
  });

  it('an unusable Host header does not become part of any URL the server builds', async () => {
    for (const host of ['evil.example/path', 'a b', 'x@evil.example', '']) {
      const wire = await rawExchange(
        `GET ${SETTINGS_PATH}/title HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`,
      );
      expect(wire.text).not.toContain('evil.example');
      expect([200, 400]).toContain(wire.statuses[0]);
    }
  });
});
