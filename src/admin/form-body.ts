/** The largest form body the admin pages read by default: 1 MiB. */
export const DEFAULT_MAX_FORM_BYTES = 1024 * 1024;

/** A submitted form body, or why it was refused. */
export type FormBody =
  | { readonly ok: true; readonly form: URLSearchParams }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string };

/** Whether the request says its body is `application/x-www-form-urlencoded`. */
export function isUrlEncodedForm(request: Request): boolean {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/x-www-form-urlencoded';
}

/**
 * Reads an `application/x-www-form-urlencoded` body of at most `maxBytes` bytes, counted
 * while reading (whatever `Content-Length` says); reading stops at the limit.
 */
export async function readFormBody(request: Request, maxBytes: number): Promise<FormBody> {
  if (!isUrlEncodedForm(request)) {
    return { ok: false, status: 415, message: 'The form must be sent as application/x-www-form-urlencoded.' };
  }
  const tooLarge = {
    ok: false,
    status: 413,
    message: `The form is larger than ${maxBytes} bytes.`,
  } as const;
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, status: 400, message: 'The form is not valid UTF-8 text.' };
  }
  return { ok: true, form: new URLSearchParams(text) };
}
