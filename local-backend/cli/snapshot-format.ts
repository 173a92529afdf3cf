/**
 * Convex's snapshot ZIP (`npx convex export` / `npx convex import`), what its export
 * (`snapshot-export.ts`), its parsing (`snapshot-parse.ts`) and its import (`snapshot-import.ts`) share:
 *
 *   README.md
 *   _tables/documents.jsonl              {"name":"messages","id":10001} per table
 *   <table>/documents.jsonl              one document per line
 *   <table>/generated_schema.jsonl       "uniform": documents are Convex's lossless export JSON
 *   _storage/documents.jsonl             {"_id","_creationTime","sha256","size","contentType"} per file
 *   _storage/<id>[.ext]                  the file's bytes (`--include-file-storage`)
 *
 * Documents are written as Convex's lossless export JSON (integers are int64, numbers with a dot or an
 * exponent are float64, bytes and special floats as `{"$bytes"}` / `{"$float"}`), and every id (`_id`
 * and each reference to an exported document) in Convex's id format (convex-ids.ts), so the ZIP
 * imports into a Convex deployment; importing it here gives back the very same local ids. Ids of a
 * Convex deployment's export get new local ids, and every reference to them is rewritten.
 */

/** Convex numbers user tables from here, in `_tables/documents.jsonl` and in ids. */
export const FIRST_TABLE_NUMBER = 10001;
/** The table number of `_storage` ids on Convex deployments. */
export const STORAGE_TABLE_NUMBER = 540;
