/**
 * Snapshot export and import in Convex's ZIP format (`npx convex export` / `npx convex import`):
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
import { createHash } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import {
  convexIdForLocal,
  decodeConvexId,
  localPartsOf,
  localId,
  localIdParts,
  type ConvexId,
} from "../values/convex-ids.ts";
import type { LocalBackendEngine } from "../runtime/engine.ts";
import { writeFileDurably } from "../core/files.ts";
import { tableFromId } from "../core/paths.ts";
import type { Document } from "../storage/store.ts";
import { checkValue } from "../values/validate.ts";

/** Convex numbers user tables from here, in `_tables/documents.jsonl` and in ids. */
const FIRST_TABLE_NUMBER = 10001;
/** The table number of `_storage` ids on Convex deployments. */
export const STORAGE_TABLE_NUMBER = 540;
/** An import's files, uncompressed, at most. */
const MAX_IMPORT_BYTES = 2 * 1024 ** 3;
const PAGE = 1000;
/**
 * Lines of an uploaded file parsed between turns of the event loop: parsing a large import runs
 * before it takes the database, and must not hold up everyone else meanwhile (decision 057).
 */
const PARSE_SLICE = 2000;
/** Documents an import writes (or deletes) in one part, between turns of the event loop (decision 070). */
const IMPORT_PART = 250;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const README = `# A snapshot of the LiveLocal embedded backend

Made by \`npx convex export\` against the embedded backend, in Convex's snapshot format: each
table's documents are lines of JSON in <table>/documents.jsonl, files (if included) are in _storage/.
\`npx convex import <this file>\` loads it into a Convex deployment or an embedded backend.
`;

// -- Lossless export JSON --------------------------------------------------------------------

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

// -- Ids -------------------------------------------------------------------------------------

/** Replaces every string (not field names) for which `map` gives another. */
function rewriteStrings(value: Value, map: (text: string) => string | null): Value {
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

// -- Export ----------------------------------------------------------------------------------

const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpeg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/avif": ".avif",
  "image/svg+xml": ".svg",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "application/json": ".json",
  "application/pdf": ".pdf",
};

function* tableDocuments(engine: LocalBackendEngine, table: string): Generator<Document> {
  let cursor: string | null = null;
  for (;;) {
    const page = engine.runner.pageOfTable("", table, "asc", cursor, PAGE) as {
      page: Document[];
      isDone: boolean;
      continueCursor: string;
    };
    yield* page.page;
    if (page.isDone) return;
    cursor = page.continueCursor;
  }
}

/**
 * The ZIP of every table (and, with `includeStorage`, every stored file), read in one transaction
 * with no function running meanwhile.
 */
export async function buildSnapshotZip(
  engine: LocalBackendEngine,
  includeStorage: boolean,
): Promise<{ zip: Uint8Array; documents: number; files: number }> {
  return await engine.runner.exclusive(() => {
    const tables = engine.tableNames();
    const numbers = new Map(tables.map((table, i) => [table, FIRST_TABLE_NUMBER + i]));
    numbers.set("_storage", STORAGE_TABLE_NUMBER);
    const toConvexId = (text: string): string | null => {
      const table = tableFromId(text);
      const number = table === null ? undefined : numbers.get(table);
      if (number === undefined) return null;
      const parts = localIdParts(text, table!);
      return parts === null ? null : convexIdForLocal(parts, number);
    };
    const files: Zippable = { "README.md": new TextEncoder().encode(README) };
    const encoder = new TextEncoder();
    files["_tables/documents.jsonl"] = encoder.encode(
      tables.map((name) => `${JSON.stringify({ name, id: numbers.get(name) })}\n`).join(""),
    );
    let documents = 0;
    for (const table of tables) {
      const lines: string[] = [];
      for (const doc of tableDocuments(engine, table)) {
        lines.push(`${exportJson(rewriteStrings(doc, toConvexId))}\n`);
        documents += 1;
      }
      files[`${table}/documents.jsonl`] = encoder.encode(lines.join(""));
      files[`${table}/generated_schema.jsonl`] = encoder.encode('"uniform"\n');
    }
    let fileCount = 0;
    if (includeStorage) {
      const lines: string[] = [];
      for (const doc of tableDocuments(engine, "_storage")) {
        const id = doc._id as string;
        const contentType = typeof doc.contentType === "string" ? doc.contentType : null;
        const exportedId = toConvexId(id) ?? id;
        lines.push(
          `${JSON.stringify({
            _id: exportedId,
            _creationTime: doc._creationTime,
            sha256: doc.sha256,
            size: Number(doc.size),
            ...(contentType ? { contentType } : {}),
          })}\n`,
        );
        const contents = engine.runner.fileContents(id);
        if (contents) {
          files[`_storage/${exportedId}${(contentType && EXTENSIONS[contentType]) ?? ""}`] = [
            contents.bytes,
            { level: 0 },
          ];
          fileCount += 1;
        }
      }
      files["_storage/documents.jsonl"] = encoder.encode(lines.join(""));
    }
    return { zip: zipSync(files), documents, files: fileCount };
  });
}

// -- Import ----------------------------------------------------------------------------------

export type ImportFormat = "zip" | "jsonLines" | "jsonArray" | "csv";
export type ImportMode = "requireEmpty" | "append" | "replace" | "replaceAll";

type StorageEntry = { id: string | null; creationTime: number | null; contentType: string | null };

/** What an uploaded file holds, parsed and checked, before anything is written. */
export type ParsedImport = {
  /** Documents by table (app tables only), in file order. */
  tables: Map<string, Document[]>;
  /** `_storage` entries and their bytes (ZIP only). */
  storage: { entry: StorageEntry; bytes: Uint8Array }[];
  /** Table numbers of the snapshot's ids (`_tables/documents.jsonl`, and `_storage`). */
  tableNumbers: Map<number, string>;
  /** Notes for the confirmation message (what is not imported). */
  notes: string[];
};

export class ImportError extends Error {}

function importError(message: string): ImportError {
  return new ImportError(message);
}

function checkTableName(name: string): void {
  if (!/^[a-zA-Z][a-zA-Z0-9_]*$/.test(name) || name.length > 64) {
    throw importError(`${JSON.stringify(name)} isn't a valid table name`);
  }
}

async function parseLines(text: string, parse: (line: string) => Value, where: string): Promise<Document[]> {
  const docs: Document[] = [];
  let lineno = 0;
  for (const line of text.split("\n")) {
    lineno += 1;
    if (lineno % PARSE_SLICE === 0) await nextTurn();
    if (line.trim() === "") continue;
    let value: Value;
    try {
      value = parse(line);
    } catch (e) {
      throw importError(
        `Row ${lineno} of ${where} wasn't valid JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof ArrayBuffer) {
      throw importError(`Row ${lineno} of ${where} wasn't an object`);
    }
    docs.push(value as Document);
  }
  return docs;
}

function plainJson(line: string): Value {
  return jsonToConvex(JSON.parse(line) as JSONValue);
}

/**
 * Parses an uploaded file, giving the event loop a turn every few thousand lines; throws ImportError
 * with a sentence when it cannot be imported.
 */
export async function parseImport(
  bytes: Uint8Array,
  format: ImportFormat,
  tableName: string | null,
): Promise<ParsedImport> {
  const parsed: ParsedImport = { tables: new Map(), storage: [], tableNumbers: new Map(), notes: [] };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw importError("The file starts with a UTF-8 BOM, which is not supported");
  }
  if (format !== "zip") {
    if (tableName === null) throw importError(`The \`--table\` option is required for format ${format}`);
    checkTableName(tableName);
    const text = new TextDecoder().decode(bytes);
    if (format === "csv") {
      throw importError("CSV imports are not supported by the embedded backend; use JSONL or a JSON array");
    }
    if (format === "jsonLines") {
      parsed.tables.set(tableName, await parseLines(text, plainJson, tableName));
    } else {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw importError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!Array.isArray(value)) throw importError("Not a JSON array");
      parsed.tables.set(
        tableName,
        await parseLines(value.map((item) => JSON.stringify(item)).join("\n"), plainJson, tableName),
      );
    }
    return parsed;
  }
  let entries: Record<string, Uint8Array>;
  let total = 0;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > MAX_IMPORT_BYTES) throw importError("The ZIP's files are over 2 GB unpacked");
        return !file.name.endsWith("/");
      },
    });
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw importError(`invalid zip file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const decoder = new TextDecoder();
  const uniform = new Set<string>();
  for (const [name, data] of Object.entries(entries)) {
    const match = /^(?:.*\/)?([^/]+)\/generated_schema\.jsonl$/.exec(name);
    if (
      match &&
      !name.includes("_components/") &&
      decoder.decode(data).trim().split("\n")[0] === '"uniform"'
    ) {
      uniform.add(match[1]);
    }
  }
  const storageFiles = new Map<string, Uint8Array>();
  let storageDocs: Document[] = [];
  for (const [name, data] of Object.entries(entries)) {
    if (name.includes("_components/")) {
      const note =
        "Data of Convex components (_components/…) is not imported: the embedded backend runs none yet.";
      if (!parsed.notes.includes(note)) parsed.notes.push(note);
      continue;
    }
    const documents = /^(?:.*\/)?([^/]+)\/documents\.jsonl$/.exec(name);
    if (documents) {
      const table = documents[1];
      const text = decoder.decode(data);
      if (table === "_tables") {
        for (const row of await parseLines(text, plainJson, name)) {
          if (typeof row.name === "string" && typeof row.id === "number") {
            parsed.tableNumbers.set(row.id, row.name);
          }
        }
      } else if (table === "_storage") {
        storageDocs = await parseLines(text, plainJson, name);
      } else if (!table.startsWith("_")) {
        checkTableName(table);
        parsed.tables.set(
          table,
          await parseLines(text, uniform.has(table) ? parseExportJson : plainJson, name),
        );
      }
      continue;
    }
    const file = /^(?:.*\/)?_storage\/([^/.]+)(?:\.[^/]+)?$/.exec(name);
    if (file && file[1] !== "documents") storageFiles.set(file[1], data);
  }
  parsed.tableNumbers.set(STORAGE_TABLE_NUMBER, "_storage");
  for (const doc of storageDocs) {
    const id = typeof doc._id === "string" ? doc._id : null;
    const bytesOfFile = id === null ? undefined : storageFiles.get(id);
    if (id !== null) storageFiles.delete(id);
    if (!bytesOfFile) continue;
    parsed.storage.push({
      entry: {
        id,
        creationTime: typeof doc._creationTime === "number" ? doc._creationTime : null,
        contentType: typeof doc.contentType === "string" ? doc.contentType : null,
      },
      bytes: bytesOfFile,
    });
  }
  // A file without its line in _storage/documents.jsonl is imported too (as Convex does).
  for (const [id, data] of storageFiles) {
    parsed.storage.push({ entry: { id, creationTime: null, contentType: null }, bytes: data });
  }
  return parsed;
}

/** Tables and files the import writes, with what they hold now and what would be deleted. */
export type ImportPlan = {
  changes: { table: string; added: number; deleted: number; existing: number; unit: string }[];
  requireConfirmation: boolean;
};

/** What the import would do (Convex's "Import change summary"); throws when `mode` forbids it. */
export function planImport(engine: LocalBackendEngine, parsed: ParsedImport, mode: ImportMode): ImportPlan {
  const targets = new Map<string, number>();
  for (const [table, docs] of parsed.tables) targets.set(table, docs.length);
  if (mode === "replaceAll")
    for (const table of engine.tableNames()) if (!targets.has(table)) targets.set(table, 0);
  const changes: ImportPlan["changes"] = [];
  const consider = (table: string, added: number, unit: string) => {
    const existing = engine.documentCount(table);
    if (mode === "requireEmpty" && existing > 0) {
      throw importError(
        `Table ${table} already exists. Please choose a new table name or use replace/append modes.`,
      );
    }
    const deleted = mode === "replace" || mode === "replaceAll" ? existing : 0;
    changes.push({ table, added, deleted, existing, unit });
  };
  for (const [table, added] of [...targets].sort(([a], [b]) => a.localeCompare(b)))
    consider(table, added, "");
  if (parsed.storage.length > 0) consider("_storage", parsed.storage.length, " files");
  changes.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
  return { changes, requireConfirmation: changes.some((change) => change.deleted > 0) };
}

/** The plan as Convex words it before an import (`npx convex import` prints it). */
export function describePlan(plan: ImportPlan, notes: string[]): string {
  const lines: string[] = [];
  if (plan.changes.length > 0) {
    const rows = [
      ["table", "create", "delete"],
      ...plan.changes.map((c) => [
        c.table,
        c.added.toLocaleString("en-US"),
        `${c.deleted.toLocaleString("en-US")} of ${c.existing.toLocaleString("en-US")}${c.unit}`,
      ]),
    ];
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
    lines.push("Import change summary:");
    rows.forEach((row, i) => {
      lines.push(`${row.map((cell, j) => cell.padEnd(widths[j])).join(" | ")} |`);
      if (i === 0) lines.push("-".repeat(widths[0] + 3 + widths[1] + 3 + widths[2] + 2));
    });
  }
  lines.push(...notes);
  lines.push(
    "Once the import has started, it will run in the background.\nInterrupting `npx convex import` will not cancel it.",
  );
  return lines.join("\n");
}

/**
 * Writes the import in one transaction, in parts of `IMPORT_PART` documents with a turn of the event
 * loop between them (`Runner.longWrite`, decision 070): functions that only read run meanwhile on the
 * database as it was before the import, those that write wait, and no one sees any of it before it
 * commits. Tables the mode replaces are emptied, documents keep their ids and creation times where
 * they can (see the file comment), the schema is checked, stored files are written to disk before
 * the commit. Returns the documents written and the tables changed.
 */
export async function performImport(
  engine: LocalBackendEngine,
  parsed: ParsedImport,
  mode: ImportMode,
): Promise<{ written: number; tables: Set<string> }> {
  const store = engine.store;
  if (parsed.storage.length > 0 && store.storageDir === null) {
    throw importError(
      "This backend keeps no files on disk (it has no data folder), so _storage cannot be imported",
    );
  }
  const plan = planImport(engine, parsed, mode);
  const deletedFiles: string[] = [];
  const writtenFiles: string[] = [];
  const changed = new Set<string>();
  const importedIds = new Set<string>();
  let written = 0;
  try {
    await engine.runner.longWrite(async (part) => {
      // Empty what the mode replaces, a page at a time from the start of the table.
      for (const change of plan.changes) {
        if (change.deleted === 0) continue;
        changed.add(change.table);
        let done = false;
        while (!done) {
          done = await part(() => {
            const page = engine.runner.pageOfTable("", change.table, "asc", null, IMPORT_PART) as {
              page: Document[];
              isDone: boolean;
            };
            for (const doc of page.page) {
              store.write("", change.table, doc, null);
              if (change.table === "_storage") deletedFiles.push(doc._id as string);
            }
            return page.isDone;
          });
        }
      }
      // Ids: keep a local id (or the Convex id an export made of one); give others a new one.
      const idMap = new Map<string, string>();
      const seen = new Set<string>();
      const resolve = (table: string, id: unknown): string => {
        if (typeof id === "string") {
          if (seen.has(id)) throw importError(`Objects in table "${table}" have duplicate _id fields`);
          seen.add(id);
          if (localIdParts(id, table) !== null) return id;
          const decoded = decodeConvexId(id);
          const parts = decoded && localPartsOf(decoded);
          const fresh = parts ? localId(parts, table) : store.newId("", table);
          idMap.set(id, fresh);
          return fresh;
        }
        return store.newId("", table);
      };
      const pending: { table: string; doc: Document }[] = [];
      for (const [table, docs] of parsed.tables) {
        for (let i = 0; i < docs.length; i += IMPORT_PART) {
          await part(() => {
            for (const doc of docs.slice(i, i + IMPORT_PART)) {
              pending.push({ table, doc: { ...doc, _id: resolve(table, doc._id) } });
            }
          });
        }
      }
      const files = parsed.storage.map((file) => ({ ...file, id: resolve("_storage", file.entry.id) }));
      for (const file of files) importedIds.add(file.id);
      const mapReference = (text: string): string | null => {
        const mapped = idMap.get(text);
        if (mapped !== undefined) return mapped;
        const decoded: ConvexId | null = text.length >= 31 && text.length <= 37 ? decodeConvexId(text) : null;
        const parts = decoded && localPartsOf(decoded);
        const table = decoded && parsed.tableNumbers.get(decoded.tableNumber);
        return parts && table ? localId(parts, table) : null;
      };
      const validators = engine.runner.component("").validators;
      for (const file of files) {
        await part(() => {
          if (store.get(file.id)) throw importError(`A stored file with id ${file.id} already exists`);
          const path = store.filePath(file.id)!;
          // A file already there (a replaced table's, same id) is not removed if the import fails.
          if (!existsSync(path)) writtenFiles.push(path);
          writeFileDurably(path, file.bytes);
          const doc: Document = {
            sha256: createHash("sha256").update(file.bytes).digest("base64"),
            size: file.bytes.length,
            ...(file.entry.contentType ? { contentType: file.entry.contentType } : {}),
            _id: file.id,
            _creationTime: file.entry.creationTime ?? store.newCreationTime(""),
          };
          store.importDocuments([doc]);
          changed.add("_storage");
        });
      }
      for (let i = 0; i < pending.length; i += IMPORT_PART) {
        await part(() => {
          const docs: Document[] = [];
          for (const { table, doc } of pending.slice(i, i + IMPORT_PART)) {
            const { _id, _creationTime, ...fields } = doc;
            const value = rewriteStrings(fields, mapReference) as Document;
            const creationTime =
              typeof _creationTime === "bigint"
                ? Number(_creationTime)
                : typeof _creationTime === "number"
                  ? _creationTime
                  : store.newCreationTime("");
            const validator = validators.get(table);
            const error = validator ? checkValue(validator, value) : null;
            if (error) {
              throw importError(
                `Failed to insert or update a document in table "${table}" because it does not match the schema: ${error}`,
              );
            }
            if (store.get(_id as string)) {
              throw importError(
                `A document with id ${_id as string} already exists in table "${table}": import with --replace to overwrite the table`,
              );
            }
            docs.push({ ...value, _id, _creationTime: creationTime });
            changed.add(table);
          }
          store.importDocuments(docs);
          written += docs.length;
        });
      }
    });
  } catch (e) {
    for (const path of writtenFiles) removeQuietly(path);
    throw e;
  }
  for (const id of deletedFiles) {
    const path = store.filePath(id);
    if (path && !importedIds.has(id)) removeQuietly(path);
  }
  return { written, tables: changed };
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left over: harmless (no document points at it).
  }
}
