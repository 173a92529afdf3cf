/**
 * Convex's value order, and index keys that keep it as bytes.
 *
 * Convex orders values by type first, then within the type:
 * undefined (a missing field) < null < Int64 < Float64 < boolean < string < bytes < array < object.
 * Numbers compare as IEEE-754 total order (-0 before 0, NaN last), strings and bytes by their bytes,
 * arrays element by element, objects field by field in key order. An index key is its fields'
 * values, then `_creationTime` and `_id`, each encoded so that comparing the bytes (`memcmp`, as
 * SQLite compares BLOBs) gives the same answer as comparing the values. So an index range is one
 * SQLite range scan.
 */
import type { Value } from "convex/values";

/** A field value as read from a document: `undefined` when the field is missing. */
export type FieldValue = Value | undefined;

const TAG = {
  undefined: 0x01,
  null: 0x02,
  int64: 0x03,
  float64: 0x04,
  boolean: 0x05,
  string: 0x06,
  bytes: 0x07,
  array: 0x08,
  object: 0x09,
} as const;

/**
 * Above every byte that can follow a complete value in a key (a tag, or an end marker), so
 * `prefix + AFTER` sorts after every key that starts with `prefix`.
 */
export const AFTER = 0xff;

function typeRank(value: FieldValue): number {
  if (value === undefined) return TAG.undefined;
  if (value === null) return TAG.null;
  switch (typeof value) {
    case "bigint":
      return TAG.int64;
    case "number":
      return TAG.float64;
    case "boolean":
      return TAG.boolean;
    case "string":
      return TAG.string;
  }
  if (value instanceof ArrayBuffer) return TAG.bytes;
  if (Array.isArray(value)) return TAG.array;
  return TAG.object;
}

const float = new DataView(new ArrayBuffer(8));

/** A float64's bits as an unsigned 64-bit integer in total order. */
function orderedFloatBits(n: number): bigint {
  float.setFloat64(0, n);
  const bits = float.getBigUint64(0);
  return bits & 0x8000000000000000n ? ~bits & 0xffffffffffffffffn : bits | 0x8000000000000000n;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const utf8 = new TextEncoder();

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Strings by their UTF-8 bytes, without encoding them where they can: UTF-16 code units compare as
 * those bytes do except around surrogates (a pair is 4 bytes above U+FFFF's 3; a lone one encodes as
 * U+FFFD). A string that starts the other sorts first either way.
 */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  if (!isSurrogate(x) && !isSurrogate(y)) return x - y;
  return compareBytes(utf8.encode(a), utf8.encode(b));
}

/** Convex's total order of values (negative, zero or positive). */
export function compareValues(a: FieldValue, b: FieldValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case TAG.undefined:
    case TAG.null:
      return 0;
    case TAG.int64:
      return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
    case TAG.float64: {
      // Numbers compare as numbers, but for -0 before 0 and NaN's place: then by their bits.
      if ((a as number) < (b as number)) return -1;
      if ((a as number) > (b as number)) return 1;
      if (Object.is(a, b)) return 0;
      const x = orderedFloatBits(a as number);
      const y = orderedFloatBits(b as number);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case TAG.boolean:
      return Number(a) - Number(b);
    case TAG.string:
      return compareStrings(a as string, b as string);
    case TAG.bytes:
      return compareBytes(new Uint8Array(a as ArrayBuffer), new Uint8Array(b as ArrayBuffer));
    case TAG.array: {
      const x = a as Value[];
      const y = b as Value[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    default: {
      const x = Object.entries(a as Record<string, Value>).sort(([k1], [k2]) => compareStrings(k1, k2));
      const y = Object.entries(b as Record<string, Value>).sort(([k1], [k2]) => compareStrings(k1, k2));
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareStrings(x[i][0], y[i][0]) || compareValues(x[i][1], y[i][1]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
  }
}

class KeyWriter {
  private buffer = Buffer.allocUnsafe(64);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  uint64(n: bigint): void {
    this.reserve(8);
    this.buffer.writeBigUInt64BE(n, this.length);
    this.length += 8;
  }

  /** A float64 as `orderedFloatBits` gives it, written without a BigInt: flips the sign, or every bit. */
  float64(n: number): void {
    this.reserve(8);
    const at = this.length;
    this.buffer.writeDoubleBE(n, at);
    if (this.buffer[at] & 0x80) {
      for (let i = at; i < at + 8; i++) this.buffer[i] ^= 0xff;
    } else {
      this.buffer[at] |= 0x80;
    }
    this.length += 8;
  }

  /** Bytes with 0x00 escaped as 0x00 0xff and ended by 0x00 0x01: prefix-free, order kept. */
  escaped(bytes: Uint8Array): void {
    this.reserve(bytes.length * 2 + 2);
    for (const b of bytes) {
      this.buffer[this.length++] = b;
      if (b === 0) this.buffer[this.length++] = 0xff;
    }
    this.buffer[this.length++] = 0x00;
    this.buffer[this.length++] = 0x01;
  }

  /** A string as `escaped` writes its UTF-8 bytes; ASCII (most keys) without encoding it first. */
  string(text: string): void {
    const start = this.length;
    this.reserve(text.length * 2 + 2);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.length = start;
        this.escaped(utf8.encode(text));
        return;
      }
      this.buffer[this.length++] = code;
      if (code === 0) this.buffer[this.length++] = 0xff;
    }
    this.buffer[this.length++] = 0x00;
    this.buffer[this.length++] = 0x01;
  }

  value(value: FieldValue): void {
    const tag = typeRank(value);
    this.byte(tag);
    switch (tag) {
      case TAG.int64:
        this.uint64(BigInt.asUintN(64, (value as bigint) ^ -0x8000000000000000n));
        break;
      case TAG.float64:
        this.float64(value as number);
        break;
      case TAG.boolean:
        this.byte(value ? 1 : 0);
        break;
      case TAG.string:
        this.string(value as string);
        break;
      case TAG.bytes:
        this.escaped(new Uint8Array(value as ArrayBuffer));
        break;
      case TAG.array:
        for (const element of value as Value[]) this.value(element);
        this.byte(0x00);
        break;
      case TAG.object: {
        const entries = Object.entries(value as Record<string, Value>).sort(([k1], [k2]) =>
          compareStrings(k1, k2),
        );
        for (const [key, field] of entries) {
          this.string(key);
          this.value(field);
        }
        this.byte(0x00);
        break;
      }
    }
  }

  take(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

/** Keys are built one at a time (synchronously), each copied out: one buffer serves them all. */
const sharedWriter = new KeyWriter();

/** The key of a sequence of values: bytes that compare as the values do, element by element. */
export function encodeKey(values: readonly FieldValue[], suffix?: number): Buffer {
  const writer = sharedWriter;
  writer.length = 0;
  for (const value of values) writer.value(value);
  if (suffix !== undefined) writer.byte(suffix);
  return writer.take();
}

/** A document's value at a dotted field path (`a.b.c`); `undefined` when any step is missing. */
export function fieldValue(doc: Record<string, Value>, fieldPath: string): FieldValue {
  // Most paths are one field: no split.
  if (!fieldPath.includes(".")) return doc[fieldPath];
  let current: FieldValue = doc;
  for (const part of fieldPath.split(".")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    if (current instanceof ArrayBuffer) return undefined;
    current = (current as Record<string, Value>)[part];
  }
  return current;
}
