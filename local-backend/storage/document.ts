/**
 * Documents as the store keeps them: Convex's JSON text (`convex-json.ts`) by id, parsed only when a
 * caller needs the value.
 */
import type { Value } from "convex/values";
import { fromConvexJsonText } from "../values/convex-json.ts";

export type Document = Record<string, Value>;

/** The root app is component ""; a component's data is kept apart under its path. */
export type ComponentPath = string;

export type StoredDocument = { component: ComponentPath; table: string; doc: Document };

export function parseDocument(text: string): Document {
  return fromConvexJsonText(text) as Document;
}

/** A row of an index: its key and its document as stored (Convex's JSON), parsed only when needed. */
export class IndexRow {
  private parsed: Document | undefined;

  constructor(
    readonly key: Buffer,
    readonly json: string,
  ) {}

  get doc(): Document {
    this.parsed ??= parseDocument(this.json);
    return this.parsed;
  }
}
