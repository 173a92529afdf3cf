/**
 * What every document written passes, whoever writes it (a mutation's `ctx.db`, an import): Convex's
 * checks of a document as it is built (fields, nesting, names), its table's schema, then its size, in
 * the order Convex makes them and in its words.
 */
import type { Document } from "../storage/document.ts";
import { checkDocumentSize, checkNewDocument } from "../values/limits.ts";
import { checkValue, type ValidatorJson } from "../values/validate.ts";

/**
 * Checks `doc` (its system fields included) for `table`, whose schema validator is `validator`
 * (none: a table without one); returns its Convex size. Throws the first check it fails.
 */
export function checkDocument(validator: ValidatorJson | undefined, table: string, doc: Document): number {
  const { size } = checkNewDocument(doc);
  if (validator) {
    const { _id, _creationTime, ...fields } = doc;
    void _id;
    void _creationTime;
    const error = checkValue(validator, fields);
    if (error) {
      throw new Error(
        `Failed to insert or update a document in table "${table}" because it does not match the schema: ${error}`,
      );
    }
  }
  checkDocumentSize(size);
  return size;
}
