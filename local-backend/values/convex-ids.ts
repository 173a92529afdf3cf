/**
 * Convex's document id format (what `_id` looks like on a Convex deployment), so a snapshot export
 * can go to Convex and a Convex export can come here: base32 (Crockford, lower case) of
 * `varint(table number) ‖ 16-byte internal id ‖ fletcher16 footer` (little-endian, XOR version 0).
 *
 * This backend's own ids are `<counter: 16 digits><random: 20 digits><table name>` (decision 054): the
 * counter keeps them unique and in issue order, the 64 random bits make one unguessable from another,
 * as Convex's are, and keep an id from coming back after a crash took the counter's last move. An
 * export writes each as a Convex id whose internal id is `RANDOM_MARKER ‖ counter (7 bytes) ‖ random
 * (8 bytes)`, so importing it back gives the very same local id. Ids of stores made before 054 are
 * `<counter padded with zeros><table name>` and export as `MARKER ‖ counter`, as they always did.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const DECODE = new Map([...ALPHABET].map((c, i) => [c, i]));
const INTERNAL_ID_LEN = 16;
const MIN_BINARY_LEN = 1 + INTERNAL_ID_LEN + 2;
const MAX_BINARY_LEN = 5 + INTERNAL_ID_LEN + 2;

/** First half of the internal id of ids made from this backend's (ASCII "LiveLocl"). */
const MARKER = Buffer.from("LiveLocl", "ascii");

function encodedLen(len: number): number {
  return Math.floor(len / 5) * 8 + [0, 2, 4, 5, 7][len % 5];
}

export function base32Encode(data: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of data) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Uint8Array | null {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = DECODE.get(char);
    if (value === undefined) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}

function fletcher16(bytes: Uint8Array): number {
  let c0 = 0;
  let c1 = 0;
  for (const byte of bytes) {
    c0 = (c0 + byte) & 0xff;
    c1 = (c1 + c0) & 0xff;
  }
  return (c1 << 8) | c0;
}

export type ConvexId = { tableNumber: number; internalId: Uint8Array };

export function encodeConvexId({ tableNumber, internalId }: ConvexId): string {
  if (!Number.isInteger(tableNumber) || tableNumber < 1 || tableNumber > 0xffffffff) {
    throw new Error(`Invalid table number ${tableNumber}`);
  }
  if (internalId.length !== INTERNAL_ID_LEN) throw new Error("An internal id is 16 bytes");
  const bytes: number[] = [];
  let n = tableNumber;
  while (n >= 0x80) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  bytes.push(...internalId);
  const footer = fletcher16(Uint8Array.from(bytes));
  bytes.push(footer & 0xff, footer >> 8);
  return base32Encode(Uint8Array.from(bytes));
}

/** The table number and internal id of a Convex id, or null when `text` is not one. */
export function decodeConvexId(text: string): ConvexId | null {
  if (text.length < encodedLen(MIN_BINARY_LEN) || text.length > encodedLen(MAX_BINARY_LEN)) return null;
  const bytes = base32Decode(text);
  if (!bytes) return null;
  let tableNumber = 0;
  let pos = 0;
  for (let i = 0; ; i++) {
    if (i >= 5 || pos >= bytes.length) return null;
    const byte = bytes[pos++];
    tableNumber += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) break;
  }
  if (tableNumber === 0 || bytes.length !== pos + INTERNAL_ID_LEN + 2) return null;
  const internalId = bytes.slice(pos, pos + INTERNAL_ID_LEN);
  const footer = bytes[pos + INTERNAL_ID_LEN] | (bytes[pos + INTERNAL_ID_LEN + 1] << 8);
  if (fletcher16(bytes.subarray(0, pos + INTERNAL_ID_LEN)) !== footer) return null;
  // Only the canonical spelling (no stray bits in the last character).
  if (base32Encode(bytes) !== text) return null;
  return { tableNumber, internalId };
}

/** The parts of a local id: its counter, and its random part (null in an id made before decision 054). */
export type LocalIdParts = { counter: bigint; random: bigint | null };

const COUNTER_DIGITS = 16;
const RANDOM_DIGITS = 20;
const MAX_COUNTER = 10n ** BigInt(COUNTER_DIGITS);
const MAX_RANDOM = 1n << 64n;
/** First byte of the internal id of a Convex id made from a local id with a random part ("r"). */
const RANDOM_MARKER = 0x72;

/** This backend's id for `parts` in `table` (as the store makes them). */
export function localId({ counter, random }: LocalIdParts, table: string): string {
  if (random === null) return counter.toString().padStart(Math.max(0, 32 - table.length), "0") + table;
  if (counter < 0n || counter >= MAX_COUNTER || random < 0n || random >= MAX_RANDOM) {
    throw new Error(`No local id has counter ${counter} and random part ${random}`);
  }
  return (
    counter.toString().padStart(COUNTER_DIGITS, "0") + random.toString().padStart(RANDOM_DIGITS, "0") + table
  );
}

/** The parts of a local id of `table`, or null when `id` is not one (exactly as the store spells it). */
export function localIdParts(id: string, table: string): LocalIdParts | null {
  if (!id.endsWith(table)) return null;
  const digits = id.slice(0, id.length - table.length);
  if (!/^[0-9]+$/.test(digits)) return null;
  let parts: LocalIdParts = { counter: BigInt(digits), random: null };
  if (digits.length === COUNTER_DIGITS + RANDOM_DIGITS) {
    const random = BigInt(digits.slice(COUNTER_DIGITS));
    if (random < MAX_RANDOM) parts = { counter: BigInt(digits.slice(0, COUNTER_DIGITS)), random };
  }
  try {
    return localId(parts, table) === id ? parts : null;
  } catch {
    return null;
  }
}

/** The Convex id standing for a local id (its parts in the internal id). */
export function convexIdForLocal({ counter, random }: LocalIdParts, tableNumber: number): string {
  const internalId = new Uint8Array(INTERNAL_ID_LEN);
  const view = new DataView(internalId.buffer);
  if (random === null) {
    internalId.set(MARKER, 0);
    view.setBigUint64(8, counter);
  } else {
    // The counter (below 10^16 < 2^56) in bytes 1–7, after the marker.
    view.setBigUint64(0, counter);
    internalId[0] = RANDOM_MARKER;
    view.setBigUint64(8, random);
  }
  return encodeConvexId({ tableNumber, internalId });
}

/** The local id parts a Convex id made by `convexIdForLocal` stands for, or null for other ids. */
export function localPartsOf(id: ConvexId): LocalIdParts | null {
  const view = new DataView(id.internalId.buffer, id.internalId.byteOffset, INTERNAL_ID_LEN);
  if (Buffer.from(id.internalId.subarray(0, 8)).equals(MARKER)) {
    return { counter: view.getBigUint64(8), random: null };
  }
  if (id.internalId[0] !== RANDOM_MARKER) return null;
  // A Convex deployment's own id may start with the marker too: it is taken for a local id only when
  // it reads as one, and then stands for that one id both ways.
  const counter = view.getBigUint64(0) & ((1n << 56n) - 1n);
  return counter < MAX_COUNTER ? { counter, random: view.getBigUint64(8) } : null;
}
