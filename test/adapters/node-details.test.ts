import { createServer } from 'node:http';
import { connect } from 'node:net';
import {
  allowPublic,
  createRestServer,
  Framework_Plugin,
  Framework_REST_API,
  type RestServer,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viaHttp } from './support/answers';
import { listenOn } from './support/listen';
import type { Listening } from './support/parity-suite';

class EchoApi extends Framework_REST_API {
  override registerRoutes(routes: RouteRegistry): void {
    routes.register('echo/v1', '/echo', {
      methods: ['GET', 'POST'],
      permission: allowPublic(),
      handler: (request) => ({ url: request.url.href, body: request.body ?? null }),
    });
    routes.register('echo/v1', '/cookies', {
      methods: 'GET',
      permission: allowPublic(),
      handler: () => {
        const headers = new Headers({ 'content-type': 'text/plain' });
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/');
        return new Response('streamed text', { status: 202, headers });
      },
    });
  }
}

class EchoPlugin extends Framework_Plugin {
  constructor() {
    super({ id: 'echo', name: 'Echo', version: '1.0.0' });
  }
  protected override initRestApiHandler(): void {
    this.restApiHandler = new EchoApi(this);
  }
}

/** Sends raw bytes on a new connection and resolves with everything the server sent back before closing. */
function rawExchange(origin: string, bytes: string, waitMs = 300): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    setTimeout(() => socket.end(), waitMs);
  });
}

describe('toNodeHandler details', () => {
  const errors: unknown[] = [];
  const urls: string[] = [];
  let server: RestServer;
  let host: Listening;

  beforeAll(async () => {
    server = createRestServer({
      plugins: [new EchoPlugin()],
      maxBodyBytes: 64,
      authenticate: (request) => {
        urls.push(request.url);
        return null;
      },
      onError: (error) => errors.push(error),
    });
    host = await listenOn(createServer(toNodeHandler(server)));
  });
  afterAll(() => host.close());

  it('writes a handler’s own Response as it is, repeated Set-Cookie headers included', async () => {
    const answer = await viaHttp(host.origin, { name: '', method: 'GET', path: '/api/echo/v1/cookies' });
    expect(answer).toMatchObject({ status: 202, body: 'streamed text' });
    const raw = await rawExchange(
      host.origin,
      'GET /api/echo/v1/cookies HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toContain('set-cookie: a=1; Path=/\r\n');
    expect(raw).toContain('set-cookie: b=2; Path=/\r\n');
  });

  it('builds the request URL from a checked Host header, and hands authenticate a Request only when asked', async () => {
    urls.length = 0;
    const good = await rawExchange(
      host.origin,
      'GET /api/echo/v1/echo?x=1 HTTP/1.1\r\nHost: shop.example:8080\r\nConnection: close\r\n\r\n',
    );
    expect(good).toContain('"url":"http://shop.example:8080/api/echo/v1/echo?x=1"');
    const bad = await rawExchange(
      host.origin,
      'GET /api/echo/v1/echo HTTP/1.1\r\nHost: a"b<c\r\nConnection: close\r\n\r\n',
    );
    expect(bad).toContain('"url":"http://localhost/api/echo/v1/echo"');
    expect(urls).toEqual([
      'http://shop.example:8080/api/echo/v1/echo?x=1',
      'http://localhost/api/echo/v1/echo',
    ]);
  });

  it('routes an absolute-form target (as sent to proxies) by its path', async () => {
    const raw = await rawExchange(
      host.origin,
      'GET http://other.example/api/echo/v1/echo HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain('"url":"http://other.example/api/echo/v1/echo"');
  });

  it('closes the connection after a 413 (the rest of the body is unread), keeps it open otherwise', async () => {
    const big = 'x'.repeat(200);
    const tooLarge = await rawExchange(
      host.origin,
      `POST /api/echo/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"${big}`,
      2_000,
    );
    expect(tooLarge).toMatch(/^HTTP\/1\.1 413/);
    expect(tooLarge.toLowerCase()).toContain('connection: close');
    const fine = await rawExchange(host.origin, 'GET /api/echo/v1/echo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(fine.toLowerCase()).toContain('connection: keep-alive');
  });

  it('treats a client that leaves mid-body as gone: no onError, and the server keeps serving', async () => {
    errors.length = 0;
    await new Promise<void>((resolve) => {
      const { hostname, port } = new URL(host.origin);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /api/echo/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":',
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    const after = await viaHttp(host.origin, {
      name: '',
      method: 'POST',
      path: '/api/echo/v1/echo',
      body: { json: { a: 1 } },
    });
    expect(after).toMatchObject({ status: 200, body: { body: { a: 1 } } });
    expect(errors).toEqual([]);
  });
});
