/**
 * A query's `.filter()` expressions, evaluated on a document as Convex evaluates them (its value
 * order for comparisons).
 */
import { jsonToConvex, type JSONValue } from "convex/values";
import type { Document } from "../storage/document.ts";
import { compareValues, fieldValue, type FieldValue } from "../values/values.ts";

export function evaluateExpression(expr: JSONValue, doc: Document): FieldValue {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr)) {
    throw new Error(`Malformed filter expression ${JSON.stringify(expr)}`);
  }
  const [op, operand] = Object.entries(expr)[0] ?? [];
  const binary = () => {
    const [l, r] = operand as JSONValue[];
    return [evaluateExpression(l, doc), evaluateExpression(r, doc)] as const;
  };
  const arithmetic = (f: (a: number, b: number) => number, g: (a: bigint, b: bigint) => bigint) => {
    const [l, r] = binary();
    if (typeof l === "number" && typeof r === "number") return f(l, r);
    if (typeof l === "bigint" && typeof r === "bigint") return g(l, r);
    throw new Error(`Cannot do arithmetic on ${typeof l} and ${typeof r} in a filter`);
  };
  switch (op) {
    case "$field":
      return fieldValue(doc, operand as string);
    case "$literal":
      return operand === undefined ? undefined : jsonToConvex(operand);
    case "$eq":
      return compareValues(...binary()) === 0;
    case "$neq":
      return compareValues(...binary()) !== 0;
    case "$lt":
      return compareValues(...binary()) < 0;
    case "$lte":
      return compareValues(...binary()) <= 0;
    case "$gt":
      return compareValues(...binary()) > 0;
    case "$gte":
      return compareValues(...binary()) >= 0;
    case "$and":
      return (operand as JSONValue[]).every((e) => evaluateExpression(e, doc) === true);
    case "$or":
      return (operand as JSONValue[]).some((e) => evaluateExpression(e, doc) === true);
    case "$not":
      return evaluateExpression(operand, doc) !== true;
    case "$add":
      return arithmetic(
        (a, b) => a + b,
        (a, b) => a + b,
      );
    case "$sub":
      return arithmetic(
        (a, b) => a - b,
        (a, b) => a - b,
      );
    case "$mul":
      return arithmetic(
        (a, b) => a * b,
        (a, b) => a * b,
      );
    case "$div":
      return arithmetic(
        (a, b) => a / b,
        (a, b) => a / b,
      );
    case "$mod":
      return arithmetic(
        (a, b) => a % b,
        (a, b) => a % b,
      );
    case "$neg": {
      const value = evaluateExpression(operand, doc);
      if (typeof value === "number") return -value;
      if (typeof value === "bigint") return -value;
      throw new Error(`Cannot negate ${typeof value} in a filter`);
    }
    default:
      throw new Error(`Unknown filter operator ${String(op)}`);
  }
}
