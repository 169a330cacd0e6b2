/**
 * What the Chromium tests of the admin pages share: Debian's Chromium driven by playwright-core,
 * and a minimal node:http → Fetch bridge to serve a REST server on a real listener.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type BrowserContext, chromium } from 'playwright-core';
import { ADMIN_SESSION, SESSION_COOKIE } from './acme-server';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Whether the browser tests cannot run here (they may be skipped only without REQUIRE_SERVICES=1). */
export const browserMissing = !existsSync(CHROMIUM);

/** A listener serving `handler` on 127.0.0.1 (the `/node` adapter is tested on its own). */
export function listen(
  handler: (request: Request) => Promise<Response>,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const origin = `http://${incoming.headers.host ?? '127.0.0.1'}`;
    const headers = new Headers();
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
      headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
    }
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method: incoming.method,
      headers,
      body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
    handler(request)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        const reader = response.body?.getReader();
        for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
          outgoing.write(chunk.value);
        }
        outgoing.end();
      })
      .catch(() => {
        outgoing.writeHead(500).end();
      });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

/** Closes a listener (nothing when there is none). */
export function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** A Chromium context signed in as the admin (the session cookie of 127.0.0.1), and how to end it. */
export async function launchSignedIn(): Promise<{ context: BrowserContext; dispose(): Promise<void> }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'admin-browser-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1100, height: 900 },
  });
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: ADMIN_SESSION,
      domain: '127.0.0.1',
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
    },
  ]);
  return {
    context,
    async dispose() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
