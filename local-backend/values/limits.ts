/**
 * Convex's limits on values and on one transaction, with its numbers and its words (decision 074).
 *
 * Sizes are Convex's `size()` of a value, not its JSON length: null and booleans 1, numbers and
 * int64s 9, a string or bytes their UTF-8 length + 2, an array its elements + 2, an object, for each
 * field, the name's length + 1 + the value's size, + 2. A document's size and nesting count its
 * `_id` and `_creationTime`. Where Convex's numbers live: `crates/value/src` (array, object, size,
 * `sync_types/identifier.rs`), `crates/common/src/document.rs` and `knobs.rs`; the errors are those of
 * `crates/database/src/reads.rs` / `writes.rs`, `crates/model/src/scheduled_jobs` and
 * `crates/isolate/src/helpers.rs`.
 */
import type { Value } from "convex/values";

export const MAX_DOCUMENT_SIZE = 1 << 20;
export const MAX_DOCUMENT_NESTING = 16;
/** Any value (an argument, a result) before the document's own limits. */
export const MAX_VALUE_SIZE = 1 << 25;
export const MAX_VALUE_NESTING = 64;
export const MAX_ARRAY_LENGTH = 8192;
export const MAX_OBJECT_FIELDS = 1024;
export const MAX_FIELD_NAME_LENGTH = 1024;
/** Table names (and the keys of object validators). */
export const MAX_IDENTIFIER_LENGTH = 64;
export const MAX_FUNCTION_RESULT_SIZE = 1 << 24;

/** One transaction's limits, named as `getTransactionMetrics()` and `transactionLimits` name them. */
export type TransactionLimits = {
  bytesRead: number;
  documentsRead: number;
  databaseQueries: number;
  documentsWritten: number;
  bytesWritten: number;
  functionsScheduled: number;
  scheduledFunctionArgsBytes: number;
};

export const TRANSACTION_LIMITS: Readonly<TransactionLimits> = {
  bytesRead: 1 << 24,
  documentsRead: 32_000,
  databaseQueries: 4_096,
  documentsWritten: 16_000,
  bytesWritten: 1 << 24,
  functionsScheduled: 1_000,
  scheduledFunctionArgsBytes: 1 << 24,
};

/**
 * A limit met. `paginationLimit` marks the read limits, which cut a `.paginate()` page short
 * (`SplitRequired`) instead of failing it, as on Convex.
 */
export class LimitError extends Error {
  constructor(
    readonly shortMsg: string,
    message: string,
    readonly paginationLimit = false,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Sizes in words

const BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/** A size as Convex's messages print it (Rust's `humansize` with `BINARY`): `1 MiB`, `1.00 MiB`. */
export function formatBinarySize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < BINARY_UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  const whole = Math.abs(size - Math.trunc(size)) < Number.EPSILON;
  return `${whole ? size.toFixed(0) : toFixedHalfEven(size, 2)} ${BINARY_UNITS[unit]}`;
}

/** `toFixed` rounding an exact tie to even, as Rust's formatting does (`toFixed` rounds it up). */
function toFixedHalfEven(value: number, places: number): string {
  const scaled = value * 10 ** places;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5 && floor % 2 === 0) return (floor / 10 ** places).toFixed(places);
  return value.toFixed(places);
}

const BYTE_UNITS: [number, string][] = [
  [2 ** 30, "GiB"],
  [1e9, "GB"],
  [2 ** 20, "MiB"],
  [1e6, "MB"],
  [2 ** 10, "KiB"],
  [1e3, "KB"],
];

/** A byte count as Convex's `format_bytes` writes it: the unit that divides it best, else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes === 0) return "0 bytes";
  for (const [unit, name] of BYTE_UNITS) {
    if (bytes < unit) continue;
    if (bytes % unit === 0) return `${bytes / unit} ${name}`;
    if ((bytes * 10) % unit === 0)
      return `${Math.floor(bytes / unit)}.${Math.floor((bytes * 10) / unit) % 10} ${name}`;
  }
  return `${bytes} bytes`;
}

// ---------------------------------------------------------------------------------------------
// Values

function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Null when `name` may name a field of an object (Convex's `check_valid_field_name`). */
export function fieldNameError(name: string): string | null {
  if (name.startsWith("$")) return `Field name ${name} starts with '$', which is reserved.`;
  for (const char of name) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code >= 0x7f) {
      return `Field name ${name} has invalid character ${rustChar(char)}: Field names can only contain non-control ASCII characters`;
    }
  }
  if (name.length > MAX_FIELD_NAME_LENGTH) {
    return `Field name is too long (${name.length} > maximum ${MAX_FIELD_NAME_LENGTH})`;
  }
  return null;
}

/** Null when `name` is an identifier (a table name): Convex's `check_valid_identifier`. */
export function identifierError(name: string): string | null {
  const first = name.charAt(0);
  if (name === "") return "Identifier cannot be empty";
  if (!/[A-Za-z_]/.test(first)) {
    return `Invalid first character ${rustChar(first)} in ${name}: Identifiers must start with an alphabetic character or underscore`;
  }
  const bad = /[^A-Za-z0-9_]/u.exec(name);
  if (bad) {
    return `Identifier ${name} has invalid character ${rustChar(bad[0])}: Identifiers can only contain alphanumeric characters or underscores`;
  }
  if (name.length > MAX_IDENTIFIER_LENGTH) {
    return `Identifier is too long (${name.length} > maximum ${MAX_IDENTIFIER_LENGTH})`;
  }
  if (/^_+$/.test(name)) return `Identifier ${name} cannot have exclusively underscores`;
  return null;
}

export type Measure = { size: number; nesting: number };

/**
 * A value's size and nesting, checked as Convex builds it, innermost first: a field's name, then
 * an array's length or an object's field count, its size (32 MiB) and its nesting (64). Throws the
 * first limit met, in Convex's words. Fields that are `undefined` are not there.
 */
export function measureValue(value: Value): Measure {
  if (value === null || typeof value === "boolean") return { size: 1, nesting: 0 };
  if (typeof value === "number" || typeof value === "bigint") return { size: 9, nesting: 0 };
  if (typeof value === "string") return leaf(utf8Length(value) + 2);
  if (value instanceof ArrayBuffer) return leaf(value.byteLength + 2);
  if (Array.isArray(value)) {
    let size = 2;
    let nesting = 0;
    for (const element of value) {
      const inner = measureValue(element);
      size += inner.size;
      nesting = Math.max(nesting, inner.nesting);
    }
    if (value.length > MAX_ARRAY_LENGTH) {
      throw new LimitError(
        "ArrayTooLong",
        `Array length is too long (${value.length} > maximum length ${MAX_ARRAY_LENGTH})`,
      );
    }
    return container(size, nesting + 1);
  }
  let size = 2;
  let nesting = 0;
  let fields = 0;
  for (const [name, field] of Object.entries(value as Record<string, Value | undefined>)) {
    if (field === undefined) continue;
    const error = fieldNameError(name);
    if (error) throw new LimitError("InvalidFieldName", error);
    const inner = measureValue(field);
    size += name.length + 1 + inner.size;
    nesting = Math.max(nesting, inner.nesting);
    fields += 1;
  }
  checkFieldCount(fields);
  return container(size, nesting + 1);
}

function leaf(size: number): Measure {
  checkValueSize(size);
  return { size, nesting: 0 };
}

function container(size: number, nesting: number): Measure {
  checkValueSize(size);
  if (nesting > MAX_VALUE_NESTING) {
    throw new LimitError(
      "TooNestedError",
      `Value is too nested (nested ${nesting} levels deep > maximum nesting ${MAX_VALUE_NESTING})`,
    );
  }
  return { size, nesting };
}

function checkFieldCount(fields: number): void {
  if (fields > MAX_OBJECT_FIELDS) {
    throw new LimitError(
      "TooManyFieldsError",
      `Object has too many fields (${fields} > maximum number ${MAX_OBJECT_FIELDS})`,
    );
  }
}

function checkValueSize(size: number): void {
  if (size > MAX_VALUE_SIZE) throw valueTooLarge(size, MAX_VALUE_SIZE);
}

function valueTooLarge(size: number, limit: number): LimitError {
  return new LimitError(
    "ValueTooLargeError",
    `Value is too large (${formatBinarySize(size)} > maximum size ${formatBinarySize(limit)})`,
  );
}

/**
 * A syscall's value argument, measured: a limit met is an invalid argument, as Convex words it
 * (`Invalid argument \`value\` for \`db.insert\`: Array length is too long …`).
 */
export function measureArgument(value: Value, syscall: string, argument = "value"): Measure {
  try {
    return measureValue(value);
  } catch (e) {
    if (e instanceof LimitError)
      throw new LimitError(
        "InvalidArgument",
        `Invalid argument \`${argument}\` for \`${syscall}\`: ${e.message}`,
      );
    throw e;
  }
}

/**
 * A document about to be written (its system fields included): the checks Convex makes when it
 * builds one (its field count with `_id` and `_creationTime`, then nesting within 16 and no other
 * top-level field starting with `_`, told with the document). Returns its size for the size check
 * that comes after the schema's (`checkDocumentSize`).
 */
export function checkNewDocument(doc: Record<string, Value>): Measure {
  let fields = 0;
  for (const field of Object.values(doc)) if (field !== undefined) fields += 1;
  checkFieldCount(fields);
  const measured = measureValue(doc);
  const violations: string[] = [];
  if (measured.nesting > MAX_DOCUMENT_NESTING) {
    violations.push(
      `Document is too nested (nested ${measured.nesting} levels deep > maximum nesting ${MAX_DOCUMENT_NESTING})`,
    );
  }
  for (const name of Object.keys(doc).sort()) {
    if (name.startsWith("_") && name !== "_id" && name !== "_creationTime" && doc[name] !== undefined) {
      violations.push(
        `Field '${name}' starts with an underscore, which is only allowed for system fields like '_id'`,
      );
    }
  }
  if (violations.length > 0) {
    throw new LimitError(
      "InvalidDocumentError",
      `Document(value: ${displayValue(doc)}) isn't a valid document: ${violations.join("\n ")}`,
    );
  }
  return measured;
}

/** A document within 1 MiB (Convex's `check_user_size`). */
export function checkDocumentSize(size: number): void {
  if (size > MAX_DOCUMENT_SIZE) throw valueTooLarge(size, MAX_DOCUMENT_SIZE);
}

/**
 * A function's result, as its JSON text, within 16 MiB; `udfPath` as this backend canonicalises it
 * (`dir/file:fn`), printed as Convex does (`dir/file.js:fn`).
 */
export function resultTooLarge(udfPath: string, json: string): string | null {
  const size = convexJsonSize(json);
  if (size <= MAX_FUNCTION_RESULT_SIZE) return null;
  const colon = udfPath.lastIndexOf(":");
  const path = `${udfPath.slice(0, colon)}.js${udfPath.slice(colon)}`;
  return `Function ${path} return value is too large (actual: ${formatBinarySize(size)}, limit: ${formatBinarySize(MAX_FUNCTION_RESULT_SIZE)})`;
}

// ---------------------------------------------------------------------------------------------
// Sizes of stored documents, from their JSON text

/**
 * The Convex size of a value from its Convex JSON text (as documents are stored), without parsing
 * it into objects: reads count every document's size, and most are never parsed.
 */
export function convexJsonSize(text: string): number {
  // Without escapes, every byte past one per character is in a string (JSON's own are ASCII), so
  // strings are measured in characters and the difference added once.
  if (text.indexOf("\\") === -1)
    return new JsonSizer(text, true).value() + Buffer.byteLength(text) - text.length;
  return new JsonSizer(text, false).value();
}

/** One pass over Convex JSON text (no whitespace but where `JSON.stringify` puts none: none). */
class JsonSizer {
  private i = 0;

  constructor(
    private readonly text: string,
    /** No escapes: a string's length in characters stands for its bytes. */
    private readonly plain: boolean,
  ) {}

  /** A string's UTF-8 length; `i` at its opening quote, left after the closing one. */
  private string(): number {
    const text = this.text;
    if (this.plain) {
      const end = text.indexOf('"', this.i + 1);
      const length = end - this.i - 1;
      this.i = end + 1;
      return length;
    }
    let i = this.i + 1;
    let bytes = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) return this.escapedString();
      // A surrogate pair is 4 bytes: 2 for each half.
      bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3;
      i += 1;
    }
    this.i = i + 1;
    return bytes;
  }

  /** A string with escapes in it: decoded by `JSON.parse`. */
  private escapedString(): number {
    const text = this.text;
    let end = this.i + 1;
    for (;;) {
      const c = text.charCodeAt(end);
      if (c === 0x22) break;
      end += c === 0x5c ? 2 : 1;
    }
    const decoded = JSON.parse(text.slice(this.i, end + 1)) as string;
    this.i = end + 1;
    return Buffer.byteLength(decoded, "utf8");
  }

  value(): number {
    const text = this.text;
    const c = text.charCodeAt(this.i);
    if (c === 0x22) return this.string() + 2;
    if (c === 0x5b) {
      this.i += 1;
      let size = 2;
      if (text.charCodeAt(this.i) === 0x5d) {
        this.i += 1;
        return size;
      }
      for (;;) {
        size += this.value();
        const next = text.charCodeAt(this.i);
        this.i += 1;
        if (next === 0x5d) return size;
      }
    }
    if (c === 0x7b) {
      this.i += 1;
      if (text.charCodeAt(this.i) === 0x7d) {
        this.i += 1;
        return 2;
      }
      // `{"$integer": …}`, `{"$float": …}`, `{"$bytes": …}`: a field name never starts with `$`.
      if (text.charCodeAt(this.i + 1) === 0x24) {
        const bytes = text.startsWith('"$bytes"', this.i);
        this.string();
        this.i += 1; // ':'
        const start = this.i + 1;
        this.string();
        const base64 = text.slice(start, this.i - 1);
        this.i += 1; // '}'
        return bytes ? Buffer.byteLength(base64, "base64") + 2 : 9;
      }
      let size = 2;
      for (;;) {
        size += this.string() + 1;
        this.i += 1; // ':'
        size += this.value();
        const next = text.charCodeAt(this.i);
        this.i += 1;
        if (next === 0x7d) return size;
      }
    }
    if (c === 0x74 || c === 0x6e) {
      this.i += 4;
      return 1;
    }
    if (c === 0x66) {
      this.i += 5;
      return 1;
    }
    let i = this.i + 1;
    for (;;) {
      const d = text.charCodeAt(i);
      // digits, '.', '+', '-', 'e', 'E'
      if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x2b || d === 0x2d || d === 0x65 || d === 0x45)
        i += 1;
      else break;
    }
    this.i = i;
    return 9;
  }
}

// ---------------------------------------------------------------------------------------------
// Values as Convex's messages print them (Rust's `Display` of a `ConvexValue`)

/** `{a: 1.0, b: "x", c: [1, 2n]}` as Convex prints it: keys sorted, floats with a point, int64s bare. */
export function displayValue(value: Value): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "bigint":
      return value.toString();
    case "number":
      return rustFloat(value);
    case "string":
      return rustString(value);
  }
  if (value instanceof ArrayBuffer) return `b${rustString(Buffer.from(value).toString("base64"))}`;
  if (Array.isArray(value)) return `[${value.map(displayValue).join(", ")}]`;
  const object = value as Record<string, Value | undefined>;
  const fields = Object.keys(object)
    .filter((name) => object[name] !== undefined)
    .sort()
    .map((name) => `${name}: ${displayValue(object[name]!)}`);
  return `{${fields.join(", ")}}`;
}

/** Rust's `{:?}` of an f64: `1.0`, `0.5`, `1e16`, `1e-5`, `NaN`, `inf`. */
function rustFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(n);
  if (abs >= 1e16 || abs < 1e-4) return n.toExponential().replace("e+", "e");
  const text = String(n);
  return text.includes(".") ? text : `${text}.0`;
}

function rustEscape(char: string): string {
  switch (char) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case "\0":
      return "\\0";
  }
  const code = char.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `\\u{${code.toString(16)}}` : char;
}

function rustString(text: string): string {
  let out = '"';
  for (const char of text) out += rustEscape(char);
  return `${out}"`;
}

function rustChar(char: string): string {
  return `'${char === "'" ? "\\'" : char === '"' ? '"' : rustEscape(char)}'`;
}
