/**
 * Reading an uploaded import (`npx convex import`): a snapshot ZIP (`snapshot-format.ts`), whose
 * documents are Convex's export JSON where the table says "uniform", or one table as JSON lines or a
 * JSON array. Nothing is written here: `snapshot-import.ts` writes what this returns.
 */
import { unzipSync } from "fflate";
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { Document } from "../storage/document.ts";
import { parseExportJson } from "../values/export-json.ts";
import { STORAGE_TABLE_NUMBER } from "./snapshot-format.ts";

/** An import's files, uncompressed, at most. */
const MAX_IMPORT_BYTES = 2 * 1024 ** 3;
/**
 * Lines of an uploaded file parsed between turns of the event loop: parsing a large import runs
 * before it takes the database, and must not hold up everyone else meanwhile (decision 057).
 */
const PARSE_SLICE = 2000;
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export type ImportFormat = "zip" | "jsonLines" | "jsonArray" | "csv";

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

export function importError(message: string): ImportError {
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
