/**
 * Convex's lossless export JSON (`ValueFormat::ConvexExportJSON`), the format of a snapshot's
 * documents: integers are int64, numbers with a dot or an exponent are float64, bytes and special
 * floats are `{"$bytes"}` / `{"$float"}`.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";

/** A value as Convex's lossless export JSON (`ValueFormat::ConvexExportJSON`). */
export function exportJson(value: Value): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number": {
      if (!Number.isFinite(value)) return JSON.stringify(convexToJson(value));
      if (Object.is(value, -0)) return "-0.0";
      const text = JSON.stringify(value);
      return /[.eE]/.test(text) ? text : `${text}.0`;
    }
    case "boolean":
    case "string":
      return JSON.stringify(value);
  }
  if (value instanceof ArrayBuffer) return JSON.stringify(convexToJson(value));
  if (Array.isArray(value)) return `[${value.map(exportJson).join(",")}]`;
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, Value | undefined>)) {
    if (field === undefined) continue;
    fields.push(`${JSON.stringify(key)}:${exportJson(field)}`);
  }
  return `{${fields.join(",")}}`;
}

/** Lossless export JSON back to a value: integers are int64 (bigint), other numbers float64. */
export function parseExportJson(text: string): Value {
  let pos = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at position ${pos}`);
  };
  const space = () => {
    while (pos < text.length && " \t\r\n".includes(text[pos])) pos++;
  };
  const parse = (): Value => {
    space();
    const char = text[pos];
    if (char === "{") {
      pos++;
      const fields: [string, Value][] = [];
      space();
      if (text[pos] === "}") {
        pos++;
        return {};
      }
      for (;;) {
        space();
        if (text[pos] !== '"') fail("Expected a field name");
        const key = parseString();
        space();
        if (text[pos] !== ":") fail("Expected ':'");
        pos++;
        fields.push([key, parse()]);
        space();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          break;
        }
        fail("Expected ',' or '}'");
      }
      if (fields.length > 0 && fields[0][0].startsWith("$")) {
        // `{"$integer": …}`, `{"$float": …}`, `{"$bytes": …}`: Convex's internal JSON.
        return jsonToConvex(Object.fromEntries(fields.map(([k, v]) => [k, v as JSONValue])));
      }
      return Object.fromEntries(fields);
    }
    if (char === "[") {
      pos++;
      const items: Value[] = [];
      space();
      if (text[pos] === "]") {
        pos++;
        return items;
      }
      for (;;) {
        items.push(parse());
        space();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return items;
        }
        fail("Expected ',' or ']'");
      }
    }
    if (char === '"') return parseString();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return value;
      }
    }
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(pos, pos + 400));
    if (!match) return fail("Unexpected character");
    pos += match[0].length;
    return match[2] || match[3] ? Number(match[0]) : BigInt(match[0]);
  };
  const parseString = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === "\\" ? 2 : 1;
    if (pos >= text.length) fail("Unterminated string");
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const value = parse();
  space();
  if (pos !== text.length) fail("Unexpected text after the value");
  return value;
}

/** Replaces every string (not field names) for which `map` gives another. */
export function rewriteStrings(value: Value, map: (text: string) => string | null): Value {
  if (typeof value === "string") return map(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, map));
  if (value !== null && typeof value === "object" && !(value instanceof ArrayBuffer)) {
    const out: Record<string, Value> = {};
    for (const [key, field] of Object.entries(value as Record<string, Value | undefined>)) {
      if (field !== undefined) out[key] = rewriteStrings(field, map);
    }
    return out;
  }
  return value;
}
