/**
 * Writing an import (`npx convex import`) once `snapshot-parse.ts` has read it: Convex's change
 * summary, then one transaction written in parts. Documents keep their ids and creation times where
 * they can: the local ids of our own export, or the local id inside the Convex id an export made of
 * one; ids of a Convex deployment's export get new local ids, and every reference to them is rewritten.
 */
import { createHash } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { decodeConvexId, localPartsOf, localId, localIdParts, type ConvexId } from "../values/convex-ids.ts";
import type { LocalBackendEngine } from "../runtime/engine.ts";
import { writeFileDurably } from "../core/files.ts";
import type { Document } from "../storage/document.ts";
import { checkDocument } from "../database/document-check.ts";
import { rewriteStrings } from "../values/export-json.ts";
import { importError, type ParsedImport } from "./snapshot-parse.ts";

/** Documents an import writes (or deletes) in one part, between turns of the event loop (decision 070). */
const IMPORT_PART = 250;

export type ImportMode = "requireEmpty" | "append" | "replace" | "replaceAll";

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
 * they can (see the file comment), each document passes the checks a mutation's writes pass (its
 * table's schema, Convex's document limits: `checkDocument`), stored files are written to disk before
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
            const next: Document = { ...value, _id, _creationTime: creationTime };
            try {
              checkDocument(validators.get(table), table, next);
            } catch (e) {
              throw importError(e instanceof Error ? e.message : String(e));
            }
            if (store.get(_id as string)) {
              throw importError(
                `A document with id ${_id as string} already exists in table "${table}": import with --replace to overwrite the table`,
              );
            }
            docs.push(next);
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
    if (importedIds.has(id)) continue;
    try {
      store.removeStoredFile(id);
    } catch {
      // Left over: harmless (no document points at it).
    }
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
