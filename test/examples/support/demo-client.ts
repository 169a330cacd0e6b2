/** A client of a running demo, as the printed curl commands use it. */
export class DemoClient {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** A JSON request with the bearer token; answers status, headers and parsed body. */
  async call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    const json: any = text === '' ? undefined : JSON.parse(text);
    return { status: response.status, headers: response.headers, json };
  }

  /** The value of one gateway setting. */
  async value(settingId: string): Promise<unknown> {
    return (await this.call('GET', `/api/commerce/v3/acme_pay/settings/${settingId}`)).json.value;
  }

  /** Sets one gateway setting; answers the Setting object. */
  async update(settingId: string, value: unknown) {
    return this.call('PUT', `/api/commerce/v3/acme_pay/settings/${settingId}`, { value });
  }
}

/** Polls `read` until it returns `expected` (deep-equal by JSON), or fails after `timeoutMs`. */
export async function eventually(
  read: () => Promise<unknown>,
  expected: unknown,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `expected ${JSON.stringify(expected)} within ${timeoutMs} ms, last saw ${JSON.stringify(last)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
