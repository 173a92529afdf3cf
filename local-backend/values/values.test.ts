import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compareValues, encodeKey } from "./values";

const utf8 = new TextEncoder();
const sign = (n: number) => Math.sign(n);

/** Strings of code units around the places where UTF-16 order and UTF-8 order part: surrogates. */
const trickyString = fc
  .array(
    fc.constantFrom(
      "a",
      "z",
      "é",
      "\u07ff",
      "\ud7ff",
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
      "\ue000",
      "\uffff",
      "😀",
      "𐀀",
    ),
    {
      maxLength: 6,
    },
  )
  .map((units) => units.join(""));

describe("compareValues on strings", () => {
  test("orders as their UTF-8 bytes, lone surrogates included (encoded as U+FFFD)", () => {
    fc.assert(
      fc.property(trickyString, trickyString, (a, b) => {
        expect(sign(compareValues(a, b))).toBe(sign(Buffer.compare(utf8.encode(a), utf8.encode(b))));
      }),
      { numRuns: 5000, seed: 15 },
    );
  });

  test("agrees with the order of their index keys", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        expect(sign(compareValues(a, b))).toBe(sign(Buffer.compare(encodeKey([a]), encodeKey([b]))));
      }),
      { numRuns: 2000, seed: 15 },
    );
  });

  test("a character above the surrogates sorts before one written with a pair", () => {
    expect(compareValues("\uffff", "😀")).toBeLessThan(0);
    expect(compareValues("x\ue000", "x𐀀")).toBeLessThan(0);
    expect(compareValues("ab", "abc")).toBeLessThan(0);
    expect(compareValues("b", "abc")).toBeGreaterThan(0);
  });
});

describe("numbers", () => {
  /** The order Convex gives float64s: their IEEE 754 bits, sign flipped or every bit for negatives. */
  const totalOrder = (a: number, b: number) => {
    const bits = (n: number) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, n);
      const raw = view.getBigUint64(0);
      return raw >> 63n ? ~raw & 0xffffffffffffffffn : raw | (1n << 63n);
    };
    return bits(a) < bits(b) ? -1 : bits(a) > bits(b) ? 1 : 0;
  };
  const anyDouble = fc.oneof(
    fc.double(),
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, 1, -1),
  );

  test("compare, and encode, in Convex's total order: -0 before 0, NaN after Infinity", () => {
    fc.assert(
      fc.property(anyDouble, anyDouble, (a, b) => {
        expect(sign(compareValues(a, b))).toBe(totalOrder(a, b));
        expect(sign(Buffer.compare(encodeKey([a]), encodeKey([b])))).toBe(totalOrder(a, b));
      }),
      { numRuns: 5000, seed: 15 },
    );
    expect(compareValues(-0, 0)).toBeLessThan(0);
    expect(compareValues(Infinity, NaN)).toBeLessThan(0);
    expect(compareValues(2, 2)).toBe(0);
  });
});
