/**
 * `npx convex export`: every table (and, with `includeStorage`, every stored file) as a snapshot ZIP
 * (`snapshot-format.ts`), ids in Convex's format so that the ZIP imports into a Convex deployment.
 */
import { zipSync, type Zippable } from "fflate";
import { convexIdForLocal, localIdParts } from "../values/convex-ids.ts";
import type { LocalBackendEngine } from "../runtime/engine.ts";
import { tableFromId } from "../core/paths.ts";
import type { Document } from "../storage/document.ts";
import { exportJson, rewriteStrings } from "../values/export-json.ts";
import { FIRST_TABLE_NUMBER, STORAGE_TABLE_NUMBER } from "./snapshot-format.ts";

const PAGE = 1000;

const README = `# A snapshot of the LiveLocal embedded backend

Made by \`npx convex export\` against the embedded backend, in Convex's snapshot format: each
table's documents are lines of JSON in <table>/documents.jsonl, files (if included) are in _storage/.
\`npx convex import <this file>\` loads it into a Convex deployment or an embedded backend.
`;

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
