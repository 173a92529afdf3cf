/**
 * Checks Convex values against validators in their exported JSON form (`exportArgs()`,
 * `exportReturns()`, a schema's `documentType`), as the Convex backend does, with its wording:
 * "Value does not match validator", "Object is missing the required field", "Object contains extra
 * field".
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { tableFromId } from "../core/paths.ts";
import { compareValues } from "./values.ts";

export type ValidatorJson =
  | { type: "null" | "number" | "bigint" | "boolean" | "string" | "bytes" | "any" }
  | { type: "literal"; value: JSONValue }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJson }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson; optional?: boolean } }
  | { type: "union"; value: ValidatorJson[] }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> };

/** How a validator is written in code (`v.string()`), for messages. */
export function describeValidator(validator: ValidatorJson): string {
  switch (validator.type) {
    case "null":
    case "number":
    case "bigint":
    case "boolean":
    case "string":
    case "bytes":
    case "any":
      return `v.${validator.type === "number" ? "float64" : validator.type === "bigint" ? "int64" : validator.type}()`;
    case "literal":
      return `v.literal(${JSON.stringify(validator.value)})`;
    case "id":
      return `v.id("${validator.tableName}")`;
    case "array":
      return `v.array(${describeValidator(validator.value)})`;
    case "record":
      return `v.record(${describeValidator(validator.keys)}, ${describeValidator(validator.values.fieldType)})`;
    case "union":
      return `v.union(${validator.value.map(describeValidator).join(", ")})`;
    case "object":
      return `v.object({${Object.entries(validator.value)
        .map(([key, field]) => {
          const inner = describeValidator(field.fieldType);
          return `${key}: ${field.optional ? `v.optional(${inner})` : inner}`;
        })
        .join(", ")}})`;
  }
}

function display(value: Value | undefined): string {
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = JSON.stringify(convexToJson(value));
  } catch {
    text = typeof value;
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function isPlainObject(value: Value): value is Record<string, Value> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof ArrayBuffer)
  );
}

/** A literal validator's value as a Convex value, decoded once per validator. */
const literalValues = new WeakMap<object, Value>();

function literalValue(validator: { value: JSONValue }): Value {
  let value = literalValues.get(validator);
  if (value === undefined) {
    value = jsonToConvex(validator.value);
    literalValues.set(validator, value);
  }
  return value;
}

function fitsLiteral(validator: { value: JSONValue }, value: Value): boolean {
  const literal = literalValue(validator);
  return typeof value === typeof literal && compareValues(value, literal) === 0;
}

/** A union's string literals (such as every time zone the app knows), found once per union. */
const unionStrings = new WeakMap<object, Set<string>>();

function stringLiteralsOf(union: { value: ValidatorJson[] }): Set<string> {
  let strings = unionStrings.get(union);
  if (!strings) {
    strings = new Set();
    for (const member of union.value)
      if (member.type === "literal" && typeof member.value === "string") strings.add(member.value);
    unionStrings.set(union, strings);
  }
  return strings;
}

/** Whether `value` fits one of a union's members: a string among its string literals at once. */
function fitsUnion(union: { value: ValidatorJson[] }, value: Value): boolean {
  if (typeof value === "string" && stringLiteralsOf(union).has(value)) return true;
  for (const member of union.value) if (fits(member, value)) return true;
  return false;
}

/**
 * Whether `value` fits `validator`: `checkValue`'s answer without its message, so a write (every
 * document is checked against its table's schema) builds no path or message strings, and a union
 * tries its members without describing each that does not fit.
 */
function fits(validator: ValidatorJson, value: Value | undefined): boolean {
  if (value === undefined) return validator.type === "any";
  switch (validator.type) {
    case "any":
      return true;
    case "null":
      return value === null;
    case "number":
      return typeof value === "number";
    case "bigint":
      return typeof value === "bigint";
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "bytes":
      return value instanceof ArrayBuffer;
    case "literal":
      return fitsLiteral(validator, value);
    case "id":
      return typeof value === "string" && tableFromId(value) === validator.tableName;
    case "array": {
      if (!Array.isArray(value)) return false;
      for (const item of value) if (!fits(validator.value, item)) return false;
      return true;
    }
    case "record": {
      if (!isPlainObject(value)) return false;
      for (const key in value) {
        const field = value[key];
        if (field === undefined) continue;
        if (!fits(validator.keys, key) || !fits(validator.values.fieldType, field)) return false;
      }
      return true;
    }
    case "union":
      return fitsUnion(validator, value);
    case "object": {
      if (!isPlainObject(value)) return false;
      const fields = validator.value;
      for (const key in fields) {
        const field = fields[key];
        if (value[key] === undefined ? !field.optional : !fits(field.fieldType, value[key])) return false;
      }
      for (const key in value) if (value[key] !== undefined && !Object.hasOwn(fields, key)) return false;
      return true;
    }
  }
}

/**
 * Null when `value` fits `validator`, else the message (without the error class). `path` is where the
 * value sits (`.field[2]`), for the message.
 */
export function checkValue(validator: ValidatorJson, value: Value | undefined, path = ""): string | null {
  return fits(validator, value) ? null : explain(validator, value, path);
}

/** Why `value` does not fit `validator` (null if it does), as the Convex backend words it. */
function explain(validator: ValidatorJson, value: Value | undefined, path: string): string | null {
  const mismatch = () =>
    `Value does not match validator.\nPath: ${path || "(root)"}\nValue: ${display(value)}\nValidator: ${describeValidator(validator)}`;
  if (value === undefined) return validator.type === "any" ? null : mismatch();
  switch (validator.type) {
    case "any":
      return null;
    case "null":
      return value === null ? null : mismatch();
    case "number":
      return typeof value === "number" ? null : mismatch();
    case "bigint":
      return typeof value === "bigint" ? null : mismatch();
    case "boolean":
      return typeof value === "boolean" ? null : mismatch();
    case "string":
      return typeof value === "string" ? null : mismatch();
    case "bytes":
      return value instanceof ArrayBuffer ? null : mismatch();
    case "literal":
      return fitsLiteral(validator, value) ? null : mismatch();
    case "id":
      return typeof value === "string" && tableFromId(value) === validator.tableName ? null : mismatch();
    case "array": {
      if (!Array.isArray(value)) return mismatch();
      for (let i = 0; i < value.length; i++) {
        const error = explain(validator.value, value[i], `${path}[${i}]`);
        if (error) return error;
      }
      return null;
    }
    case "record": {
      if (!isPlainObject(value)) return mismatch();
      for (const [key, field] of Object.entries(value)) {
        if (field === undefined) continue;
        const keyError = explain(validator.keys, key, `${path}.${key}`);
        if (keyError) return keyError;
        const error = explain(validator.values.fieldType, field, `${path}.${key}`);
        if (error) return error;
      }
      return null;
    }
    case "union":
      return fitsUnion(validator, value) ? null : mismatch();
    case "object": {
      if (!isPlainObject(value)) return mismatch();
      for (const [key, field] of Object.entries(validator.value)) {
        if (value[key] === undefined) {
          if (field.optional) continue;
          return `Object is missing the required field \`${key}\`. Consider wrapping the field validator in \`v.optional(...)\` if this is expected.\n\nObject: ${display(value)}\nValidator: ${describeValidator(validator)}`;
        }
        const error = explain(field.fieldType, value[key], `${path}.${key}`);
        if (error) return error;
      }
      for (const key of Object.keys(value)) {
        if (value[key] !== undefined && !Object.hasOwn(validator.value, key)) {
          return `Object contains extra field \`${key}\` that is not in the validator.\n\nObject: ${display(value)}\nValidator: ${describeValidator(validator)}`;
        }
      }
      return null;
    }
  }
}
