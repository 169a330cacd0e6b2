import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from './parity-suite';

/** Listens on 127.0.0.1 on a free port; `close` also ends open keep-alive connections. */
export async function listenOn(http: Server): Promise<Listening> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
