import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fromConvexJsonText, toConvexJsonText } from "./convex-json";

/** Convex values, the encoded kinds among them: int64, bytes, NaN, ±Infinity, -0. */
const convexValue: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.string(),
    fc.constantFrom('"$', "$integer", 'a"$b'),
    fc.uint8Array({ maxLength: 8 }).map((bytes) => bytes.slice().buffer),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("Convex JSON text", () => {
  test("is written as JSON.stringify(convexToJson(value)) writes it", () => {
    fc.assert(
      fc.property(convexValue, (value) => {
        expect(toConvexJsonText(value)).toBe(JSON.stringify(convexToJson(value)));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  test("is read back as jsonToConvex(JSON.parse(text)) reads it", () => {
    fc.assert(
      fc.property(convexValue, (value) => {
        const text = JSON.stringify(convexToJson(value));
        expect(fromConvexJsonText(text)).toStrictEqual(jsonToConvex(JSON.parse(text) as JSONValue));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  test("sorts fields and leaves out undefined ones as convexToJson does, and refuses what it refuses", () => {
    const unsorted = { b: 1, a: { d: "x", c: [2, 10] }, 10: true, 2: false };
    expect(toConvexJsonText(unsorted)).toBe(JSON.stringify(convexToJson(unsorted)));
    expect(toConvexJsonText({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(() => toConvexJsonText([undefined] as unknown as Value)).toThrow(/undefined is not a valid/);
    expect(() => toConvexJsonText({ $a: 1 })).toThrow(/reserved/);
  });
});
