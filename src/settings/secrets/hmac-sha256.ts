import { builtinModule } from '../builtin-module';

/**
 * HMAC-SHA-256 (RFC 2104 over FIPS 180-4), synchronous and in plain JavaScript: the package's one
 * HMAC — entity tags, admin CSRF tokens, plan preconditions, ids, seals and secret fingerprints.
 * WebCrypto's `sign` costs a promise and a trip through the runtime per call (a thread-pool hop
 * on Node), which dominated planning 10,000 changes and every tagged answer. The key's inner and
 * outer states are computed once and kept, so one digest of a short message is two or three
 * block compressions.
 */

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL_STATE = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const BLOCK_BYTES = 64;
/** The message schedule, reused by every compression (the module runs one compression at a time). */
const schedule = new Uint32Array(64);
const encoder = new TextEncoder();

/** Folds one 64-byte block of `bytes` at `offset` into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    schedule[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = schedule[i - 15]!;
    const w2 = schedule[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    schedule[i] = (schedule[i - 16]! + s0 + schedule[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + ROUND_CONSTANTS[i]! + schedule[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** The running state of the hash being finished (one at a time: the module never yields mid-hash). */
const working = new Uint32Array(8);
/** The last one or two blocks: the message's tail, the padding and the bit length. */
const tail = new Uint8Array(BLOCK_BYTES * 2);

/**
 * Finishes a hash whose state `start` already holds `prefixBlocks` blocks: hashes `message`
 * after them with the standard padding and writes the 32-byte digest to `out`.
 */
function finish<Out extends Uint8Array>(
  start: Uint32Array,
  prefixBlocks: number,
  message: Uint8Array,
  out: Out,
): Out {
  working.set(start);
  const whole = message.length - (message.length % BLOCK_BYTES);
  for (let offset = 0; offset < whole; offset += BLOCK_BYTES) compress(working, message, offset);
  const rest = message.length - whole;
  const length = rest + 9 <= BLOCK_BYTES ? BLOCK_BYTES : BLOCK_BYTES * 2;
  tail.fill(0, 0, length);
  tail.set(message.subarray(whole));
  tail[rest] = 0x80;
  const bits = (prefixBlocks * BLOCK_BYTES + message.length) * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  for (let i = 0; i < 4; i++) {
    tail[length - 8 + i] = (high >>> (24 - i * 8)) & 0xff;
    tail[length - 4 + i] = (bits >>> (24 - i * 8)) & 0xff;
  }
  for (let offset = 0; offset < length; offset += BLOCK_BYTES) compress(working, tail, offset);
  for (let i = 0; i < 8; i++) {
    const word = working[i]!;
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = (word >>> 16) & 0xff;
    out[i * 4 + 2] = (word >>> 8) & 0xff;
    out[i * 4 + 3] = word & 0xff;
  }
  return out;
}

/** The SHA-256 digest of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return finish(INITIAL_STATE, 0, bytes, new Uint8Array(32));
}

/** A key's states after its inner and outer pad blocks. */
interface KeyStates {
  readonly inner: Uint32Array;
  readonly outer: Uint32Array;
}

/** How many keys' states are kept (a process signs with very few: the store's salt). */
const MAX_KEPT_KEYS = 8;
const keyStates = new Map<string, KeyStates>();

function statesOf(secret: string): KeyStates {
  let states = keyStates.get(secret);
  if (states === undefined) {
    let key: Uint8Array = encoder.encode(secret);
    if (key.length > BLOCK_BYTES) key = sha256(key);
    const inner = INITIAL_STATE.slice();
    const outer = INITIAL_STATE.slice();
    const pad = new Uint8Array(BLOCK_BYTES);
    for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = (key[i] ?? 0) ^ 0x36;
    compress(inner, pad, 0);
    for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = (key[i] ?? 0) ^ 0x5c;
    compress(outer, pad, 0);
    states = { inner, outer };
    if (keyStates.size >= MAX_KEPT_KEYS) keyStates.delete(keyStates.keys().next().value as string);
    keyStates.set(secret, states);
  }
  return states;
}

/** The inner hash of an HMAC, fed to the outer one. */
const innerDigest = new Uint8Array(32);
/** The UTF-8 bytes of the short messages signed (a longer one is encoded apart, not kept). */
const messageBytes = new Uint8Array(16 * 1024);

/** From this many UTF-16 code units on, a message is signed by the runtime's native HMAC when it has one. */
const NATIVE_FROM_LENGTH = 8192;

/** The part of `node:crypto` a long message is signed with (declared here: the root entry imports no `node:` module). */
type NativeHmac = (algorithm: 'sha256', key: string) => NativeHmacState;

/** A native HMAC being fed. */
interface NativeHmacState {
  update(data: string, encoding: 'utf8'): NativeHmacState;
  digest(): Uint8Array;
}

/** `node:crypto`'s `createHmac`, looked up once (see `builtinModule`); null where there is none. */
let nativeHmac: NativeHmac | null | undefined;

function nativeHmacOf(): NativeHmac | null {
  if (nativeHmac === undefined) {
    const crypto = builtinModule<{ createHmac: NativeHmac }>('crypto');
    nativeHmac = typeof crypto?.createHmac === 'function' ? crypto.createHmac.bind(crypto) : null;
  }
  return nativeHmac;
}

/**
 * HMAC-SHA-256 of the UTF-8 bytes of `message` under the UTF-8 bytes of `secret`: 32 bytes. A
 * long message (a plan's id covers every change: a megabyte for 10,000) goes to the runtime's
 * native HMAC where there is one (`node:crypto`, the same bytes), about ten times faster.
 */
export function hmacSha256(secret: string, message: string): Uint8Array<ArrayBuffer> {
  if (message.length >= NATIVE_FROM_LENGTH) {
    const native = nativeHmacOf();
    if (native !== null) return new Uint8Array(native('sha256', secret).update(message, 'utf8').digest());
  }
  const states = statesOf(secret);
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  let bytes: Uint8Array;
  if (message.length * 3 <= messageBytes.length) {
    bytes = messageBytes.subarray(0, encoder.encodeInto(message, messageBytes).written);
  } else {
    bytes = encoder.encode(message);
  }
  finish(states.inner, 1, bytes, innerDigest);
  return finish(states.outer, 1, innerDigest, new Uint8Array(32));
}
