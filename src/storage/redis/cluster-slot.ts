/**
 * Redis Cluster's key → slot mapping (the Redis Cluster specification): CRC16-XMODEM of the
 * key's hash tag — the text between the first `{` and the first `}` after it, when that is not
 * empty — or of the whole key, modulo 16384. Computed here so that a `getMany` can group its
 * keys by slot without importing a driver.
 */

/** How many hash slots a Redis Cluster has. */
export const CLUSTER_SLOTS = 16_384;

const utf8 = new TextEncoder();
const CRC16_TABLE = buildCrc16Table();

function buildCrc16Table(): Uint16Array {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
}

/** CRC16-XMODEM (polynomial 0x1021, initial 0) of `bytes`. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}

/** The part of `key` Redis hashes: its hash tag when it has a non-empty one, else all of it. */
export function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/** The cluster slot of the Redis key `key`. */
export function clusterSlot(key: string): number {
  return crc16(utf8.encode(hashedPart(key))) % CLUSTER_SLOTS;
}
