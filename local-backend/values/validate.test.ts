import { v, type GenericValidator } from "convex/values";
import { describe, expect, test } from "vitest";
import { checkValue, type ValidatorJson } from "./validate";

/** A validator as `exportArgs()` and a schema export it (its `json`, internal to the types). */
const json = (validator: GenericValidator) => (validator as unknown as { json: ValidatorJson }).json;

describe("checkValue", () => {
  const shop = json(
    v.object({
      name: v.string(),
      status: v.union(v.literal("active"), v.literal("suspended")),
      count: v.optional(v.int64()),
      tags: v.array(v.string()),
      prices: v.record(v.string(), v.number()),
    }),
  );
  const good = { name: "Denim", status: "active", tags: ["a"], prices: { a: 1 } };

  test("a value that fits has no message, whatever optional fields are absent or undefined", () => {
    expect(checkValue(shop, good)).toBeNull();
    expect(checkValue(shop, { ...good, count: 3n, extra: undefined })).toBeNull();
  });

  test("a mismatch names the path, the value and the validator, as Convex does", () => {
    expect(checkValue(shop, { ...good, tags: ["a", 2] })).toBe(
      "Value does not match validator.\nPath: .tags[1]\nValue: 2\nValidator: v.string()",
    );
    expect(checkValue(shop, { ...good, status: "gone" })).toMatch(
      /^Value does not match validator\.\nPath: \.status\nValue: "gone"\nValidator: v\.union\(v\.literal\("active"\), v\.literal\("suspended"\)\)/,
    );
    expect(checkValue(shop, { ...good, prices: { a: "1" } })).toMatch(
      /^Value does not match validator\.\nPath: \.prices\.a\n/,
    );
  });

  test("missing and extra fields are named; inherited names are not fields", () => {
    const { name: _name, ...nameless } = good;
    expect(checkValue(shop, nameless)).toMatch(/^Object is missing the required field `name`/);
    expect(checkValue(shop, { ...good, constructor: "x" })).toMatch(
      /^Object contains extra field `constructor` that is not in the validator/,
    );
    expect(checkValue(shop, { ...good, toString: "x" })).toMatch(/extra field `toString`/);
  });

  test("a literal matches its value and type only", () => {
    const one = json(v.literal(1));
    const bigOne = json(v.literal(1n));
    expect(checkValue(one, 1)).toBeNull();
    expect(checkValue(one, 1n)).not.toBeNull();
    expect(checkValue(bigOne, 1n)).toBeNull();
    expect(checkValue(bigOne, 1)).not.toBeNull();
  });

  test("ids name their table", () => {
    expect(checkValue(json(v.id("streams")), "10001streams")).toBeNull();
    expect(checkValue(json(v.id("streams")), "10001liveShops")).toMatch(/Validator: v\.id\("streams"\)/);
  });
});

describe("unions of string literals", () => {
  const zones = Array.from({ length: 400 }, (_, i) => `Zone/${String(i).padStart(3, "0")}`);
  const literals = (...values: string[]) => values.map((value) => v.literal(value));
  const zone = json(v.union(...literals(...zones)));

  test("take each of their literals and refuse any other value with the union's message", () => {
    for (const name of zones) expect(checkValue(zone, name)).toBeNull();
    for (const other of ["Zone/400", "zone/001", "", 1, null]) {
      expect(checkValue(zone, other)).toMatch(/^Value does not match validator\.\nPath: \(root\)\n/);
    }
  });

  test("still try their other members", () => {
    const mixed = json(v.union(...literals("a", "b"), v.number(), v.id("streams")));
    expect(checkValue(mixed, "b")).toBeNull();
    expect(checkValue(mixed, 2)).toBeNull();
    expect(checkValue(mixed, "10001streams")).toBeNull();
    expect(checkValue(mixed, "c")).not.toBeNull();
    expect(checkValue(json(v.union(v.literal("a"), v.string())), "anything")).toBeNull();
  });
});
