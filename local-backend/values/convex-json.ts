/**
 * Convex's JSON text of values (the form documents are stored in and functions return), read and written
 * without the copy `convexToJson` and `jsonToConvex` make of every object and array when nothing in the
 * value needs an encoding. Only int64s, bytes and the special floats (NaN, ±Infinity, -0) are encoded
 * (`{"$integer"}`, `{"$bytes"}`, `{"$float"}`), a field name never starts with `$`, and `convexToJson`
 * writes an object's fields sorted and leaves out those that are undefined.
 *
 * For values already checked (documents being stored, what a function returned): the fast paths do not
 * check field names again, as the full conversions do.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";

/** `JSON.stringify(convexToJson(value))`. */
export function toConvexJsonText(value: Value): string {
  return isPlainJson(value) ? JSON.stringify(value) : JSON.stringify(convexToJson(value));
}

/** `jsonToConvex(JSON.parse(text))`: without a `"$` in the text, no encoded value can be in it. */
export function fromConvexJsonText(text: string): Value {
  const json = JSON.parse(text) as JSONValue;
  return text.includes('"$') ? jsonToConvex(json) : json;
}

/**
 * Whether `value` is its own Convex JSON: strings, booleans, null, finite numbers but -0, nested in
 * arrays and objects whose fields are all defined and already in sorted order (as a stored document's
 * are, and keep when a patch changes them).
 */
function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (const element of value) if (!isPlainJson(element)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      let previous: string | null = null;
      for (const key in value) {
        if (previous !== null && !(previous < key)) return false;
        if (key.startsWith("$") || !isPlainJson((value as Record<string, unknown>)[key])) return false;
        previous = key;
      }
      return true;
    }
    default:
      return false;
  }
}
