/**
 * Convex's value and transaction limits, each at its boundary: exactly at the limit passes, one over
 * fails with Convex's words (crates/value, crates/common/src/document.rs, crates/database).
 */
import { describe, expect, it } from "vitest";
import type { Value } from "convex/values";
import { toConvexJsonText } from "./convex-json.ts";
import {
  checkDocumentSize,
  checkNewDocument,
  convexJsonSize,
  displayValue,
  fieldNameError,
  formatBinarySize,
  formatBytes,
  identifierError,
  measureArgument,
  measureValue,
  resultTooLarge,
} from "./limits.ts";
import { TransactionMeter, parseTransactionLimits } from "./transaction-limits.ts";

const MiB = 1 << 20;

/** `depth` arrays inside each other: nesting `depth`. */
function nested(depth: number): Value {
  let value: Value = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

function objectWith(fields: number): Record<string, Value> {
  return Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, i]));
}

const system = { _id: "1x", _creationTime: 1.5 };
/** `{s, _id, _creationTime}` with `s` padded so that the document's size is `size`. */
function documentOfSize(size: number): Record<string, Value> {
  const overhead = measureValue({ ...system, s: "" }).size;
  return { ...system, s: "a".repeat(size - overhead) };
}

describe("sizes, as Convex counts them", () => {
  it.each<[string, Value, number]>([
    ["null", null, 1],
    ["a boolean", true, 1],
    ["a number", 0.5, 9],
    ["an int64", 5n, 9],
    ["a string, in UTF-8", "é€😀", 2 + 2 + 3 + 4],
    ["bytes", new Uint8Array([1, 2, 3]).buffer, 5],
    ["an array", [1, "a"], 2 + 9 + 3],
    ["an object", { ab: 1 }, 2 + 2 + 1 + 9],
    ["an object without its undefined fields", { a: 1, b: undefined }, 2 + 1 + 1 + 9],
  ])("%s", (_, value, size) => {
    expect(measureValue(value).size).toBe(size);
  });

  it("reads the same size from stored JSON text, escapes, encodings and all", () => {
    const values: Value[] = [
      { a: 'quote " and \\ and \n and \u0001', b: "é😀", c: [1n, -0, NaN, Infinity, 1e300, 2.5] },
      { bytes: new Uint8Array(7).buffer, nested: { deep: [[[{ x: null, y: false, z: true }]]] } },
      { empty: {}, list: [], s: "" },
      "a string",
      [1, [2, [3]]],
    ];
    for (const value of values)
      expect(convexJsonSize(toConvexJsonText(value))).toBe(measureValue(value).size);
  });

  it("prints sizes as Convex does", () => {
    expect(formatBinarySize(MiB)).toBe("1 MiB");
    expect(formatBinarySize(MiB + 1)).toBe("1.00 MiB");
    expect(formatBinarySize(1.5 * MiB)).toBe("1.50 MiB");
    expect(formatBinarySize(500)).toBe("500 B");
    // Rust's documented examples of `format_bytes`.
    expect([8_388_608, 1534, 1024, 1000, 0, 4_718_592].map(formatBytes)).toEqual([
      "8 MiB",
      "1534 bytes",
      "1 KiB",
      "1 KB",
      "0 bytes",
      "4.5 MiB",
    ]);
  });

  it("prints a value as Convex's Display does", () => {
    const value = { b: 'x"y', a: 1, c: [1n, true, null], d: 1e16, e: 0.5 } as unknown as Value;
    expect(displayValue(value)).toBe('{a: 1.0, b: "x\\"y", c: [1, true, null], d: 1e16, e: 0.5}');
  });
});

describe("value limits", () => {
  it("arrays: 8,192 elements", () => {
    expect(() => measureValue(new Array(8192).fill(0))).not.toThrow();
    expect(() => measureValue(new Array(8193).fill(0))).toThrow(
      "Array length is too long (8193 > maximum length 8192)",
    );
  });

  it("objects: 1,024 fields", () => {
    expect(() => measureValue(objectWith(1024))).not.toThrow();
    expect(() => measureValue(objectWith(1025))).toThrow(
      "Object has too many fields (1025 > maximum number 1024)",
    );
  });

  it("field names: 1,024 characters of printable ASCII, not starting with $", () => {
    expect(fieldNameError("a".repeat(1024))).toBeNull();
    expect(fieldNameError("a".repeat(1025))).toBe("Field name is too long (1025 > maximum 1024)");
    expect(fieldNameError("$a")).toBe("Field name $a starts with '$', which is reserved.");
    expect(fieldNameError("aé")).toBe(
      "Field name aé has invalid character 'é': Field names can only contain non-control ASCII characters",
    );
    expect(() => measureValue({ ["a".repeat(1025)]: 1 })).toThrow("Field name is too long");
  });

  it("table names: identifiers of 64 characters", () => {
    expect(identifierError("t".repeat(64))).toBeNull();
    expect(identifierError("t".repeat(65))).toBe("Identifier is too long (65 > maximum 64)");
    expect(identifierError("a-b")).toBe(
      "Identifier a-b has invalid character '-': Identifiers can only contain alphanumeric characters or underscores",
    );
  });

  it("any value: nesting 64, 32 MiB", () => {
    expect(() => measureValue(nested(64))).not.toThrow();
    expect(() => measureValue(nested(65))).toThrow(
      "Value is too nested (nested 65 levels deep > maximum nesting 64)",
    );
    expect(() => measureValue("a".repeat(32 * MiB - 2))).not.toThrow();
    expect(() => measureValue("a".repeat(32 * MiB - 1))).toThrow(
      "Value is too large (32.00 MiB > maximum size 32 MiB)",
    );
  });

  it("a syscall's argument is told as an invalid argument", () => {
    expect(() => measureArgument({ a: new Array(8193).fill(0) }, "db.insert")).toThrow(
      "Invalid argument `value` for `db.insert`: Array length is too long (8193 > maximum length 8192)",
    );
  });
});

describe("document limits", () => {
  it("nesting 16, counting the document itself", () => {
    expect(() => checkNewDocument({ ...system, a: nested(15) })).not.toThrow();
    expect(() => checkNewDocument({ ...system, a: nested(16) })).toThrow(
      'Document(value: {_creationTime: 1.5, _id: "1x", a: [[[[[[[[[[[[[[[[1.0]]]]]]]]]]]]]]]]}) isn\'t a valid document: Document is too nested (nested 17 levels deep > maximum nesting 16)',
    );
  });

  it("1,024 fields with _id and _creationTime", () => {
    expect(() => checkNewDocument({ ...system, ...objectWith(1022) })).not.toThrow();
    expect(() => checkNewDocument({ ...system, ...objectWith(1023) })).toThrow(
      "Object has too many fields (1025 > maximum number 1024)",
    );
  });

  it("no top-level field starting with _ but the system's", () => {
    expect(() => checkNewDocument({ ...system, _x: 1 })).toThrow(
      "isn't a valid document: Field '_x' starts with an underscore, which is only allowed for system fields like '_id'",
    );
  });

  it("1 MiB, system fields included", () => {
    const atLimit = documentOfSize(MiB);
    expect(checkNewDocument(atLimit).size).toBe(MiB);
    expect(() => checkDocumentSize(MiB)).not.toThrow();
    expect(checkNewDocument(documentOfSize(MiB + 1)).size).toBe(MiB + 1);
    expect(() => checkDocumentSize(MiB + 1)).toThrow("Value is too large (1.00 MiB > maximum size 1 MiB)");
  });

  it("a function's result: 16 MiB", () => {
    expect(resultTooLarge("dir/file:fn", JSON.stringify("a".repeat(16 * MiB - 2)))).toBeNull();
    expect(resultTooLarge("dir/file:fn", JSON.stringify("a".repeat(16 * MiB - 1)))).toBe(
      "Function dir/file.js:fn return value is too large (actual: 16.00 MiB, limit: 16 MiB)",
    );
  });
});

describe("transaction limits", () => {
  const help =
    "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

  it("documents read: 32,000", () => {
    const meter = new TransactionMeter();
    for (let i = 0; i < 32_000; i += 1) meter.read(1);
    expect(() => meter.read(1)).toThrow(
      `Too many documents read in a single function execution (limit: 32000). ${help}`,
    );
  });

  it("bytes read: 16 MiB", () => {
    const meter = new TransactionMeter();
    meter.read(16 * MiB);
    expect(() => meter.read(1)).toThrow(
      `Too many bytes read in a single function execution (limit: 16777216 bytes). ${help}`,
    );
  });

  it("index ranges: 4,096, overlapping or touching ones counted once", () => {
    const meter = new TransactionMeter();
    const key = (i: number) => Buffer.from([i >> 8, i & 0xff, 0]);
    const end = (i: number) => Buffer.from([i >> 8, i & 0xff, 1]);
    for (let i = 0; i < 4096; i += 1) meter.range(1, key(i), end(i));
    meter.range(1, key(7), end(7)); // the same range again
    meter.range(1, Buffer.from([0, 8, 0]), Buffer.from([0, 8, 0, 5])); // inside one
    expect(meter.databaseQueries).toBe(4096);
    expect(() => meter.range(2, key(0), end(0))).toThrow(
      `Too many reads in a single function execution (limit: 4096). ${help}`,
    );
    const merged = new TransactionMeter();
    merged.range(1, key(1), end(1));
    merged.range(1, key(3), end(3));
    merged.range(1, end(1), key(3)); // touches both
    expect(merged.databaseQueries).toBe(1);
  });

  it("documents written: 16,000; bytes written: 16 MiB", () => {
    const meter = new TransactionMeter();
    for (let i = 0; i < 16_000; i += 1) meter.write(0);
    expect(() => meter.write(0)).toThrow("Too many writes in a single function execution (limit: 16000)");
    const bytes = new TransactionMeter();
    bytes.write(16 * MiB);
    expect(() => bytes.write(1)).toThrow(
      "Too many bytes written in a single function execution (limit: 16 MiB)",
    );
  });

  it("functions scheduled: 1,000, their arguments 16 MiB", () => {
    const meter = new TransactionMeter();
    for (let i = 0; i < 1000; i += 1) meter.schedule(1);
    expect(() => meter.schedule(1)).toThrow("Too many functions scheduled by this mutation (limit: 1000)");
    const args = new TransactionMeter();
    args.schedule(16 * MiB);
    expect(() => args.schedule(1)).toThrow(
      "Too large total size of the arguments of scheduled functions from this mutation (limit: 16777216 bytes)",
    );
  });

  it("a nested call's transactionLimits are a budget on top of what is used, and end with the call", () => {
    const meter = new TransactionMeter();
    meter.write(0);
    const mark = meter.enter(parseTransactionLimits({ documentsWritten: 2, bytesRead: 10 ** 9 }));
    expect(meter.limits.documentsWritten).toBe(3);
    expect(meter.limits.bytesRead).toBe(16 * MiB); // never above Convex's own
    meter.write(0);
    meter.write(0);
    expect(() => meter.write(0)).toThrow("Too many writes in a single function execution (limit: 3)");
    meter.leave(mark, true);
    expect(meter.limits.documentsWritten).toBe(16_000);
    expect(meter.documentsWritten).toBe(1); // the rolled-back call's writes are undone
    expect(() => parseTransactionLimits({ documentsRead: -1 })).toThrow("non-negative");
  });
});
