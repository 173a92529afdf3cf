/**
 * `npx convex export` and `npx convex import`: their endpoints (a ZIP made and downloaded; an upload in
 * parts, confirmed, then run) and the system queries the CLI polls for their state. The snapshot
 * format itself is `snapshot.ts`'s.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { z } from "zod";
import type { Value } from "convex/values";
import { HttpError, readBody, readJson, sendJson, sendOk } from "../api/http.ts";
import type { CliHandler } from "../api/services.ts";
import type { CliHost, SystemQueryEntry } from "./cli-host.ts";
import { buildSnapshotZip } from "./snapshot-export.ts";
import { ImportError, parseImport, type ImportFormat, type ParsedImport } from "./snapshot-parse.ts";
import { describePlan, performImport, planImport, type ImportMode } from "./snapshot-import.ts";

/** Uploaded parts of an import, at most (each part is one request). */
const MAX_PART_BYTES = 64 * 1024 * 1024;
const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
const UPLOAD_TTL_MS = 60 * 60 * 1000;
/** Imports remembered for `_system/cli/queryImport:list`. */
const KEPT_IMPORTS = 20;

type ImportState =
  | { state: "uploaded" }
  | { state: "waiting_for_confirmation"; message_to_confirm: string; require_manual_confirmation: boolean }
  | { state: "in_progress"; progress_message: string; checkpoint_messages: string[] }
  | { state: "completed"; timestamp: bigint; num_rows_written: bigint }
  | { state: "failed"; error_message: string };

type ImportRecord = {
  id: string;
  creationTime: number;
  format: ImportFormat;
  mode: ImportMode;
  tableName: string | null;
  state: ImportState;
  parsed: ParsedImport | null;
};

type ExportRecord = {
  startTs: bigint;
  completeTs: bigint;
  includeStorage: boolean;
  file: string | null;
  zip: Uint8Array | null;
};

const importArgs = z.object({
  tableName: z.string().max(256).nullish(),
  componentPath: z.string().max(256).nullish(),
  mode: z.enum(["requireEmpty", "append", "replace", "replaceAll"]).default("requireEmpty"),
  format: z.enum(["csv", "jsonLines", "jsonArray", "zip"]),
});
const finishUpload = z.object({
  import: importArgs,
  uploadToken: z.string().max(200),
  partTokens: z.array(z.string().max(300)).max(10_000),
});
const importIdBody = z.object({ importId: z.string().max(200) });

/** Convex timestamps are nanoseconds. */
function nowTs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

export class SnapshotApi {
  private latestExport: ExportRecord | null = null;
  private readonly uploads = new Map<
    string,
    { parts: Map<string, Buffer>; bytes: number; created: number }
  >();
  private readonly imports = new Map<string, ImportRecord>();
  private importCounter = 0;

  constructor(private readonly host: CliHost) {}

  /** The handler of an `export` or `import` endpoint, or null. */
  route(method: string, pathname: string): CliHandler | null {
    const post = method === "POST";
    switch (pathname) {
      case "/api/export/request/zip":
        return post ? (_req, res, url) => this.requestExport(res, url) : null;
      case "/api/import/start_upload":
        return post ? (_req, res) => Promise.resolve(this.startUpload(res)) : null;
      case "/api/import/upload_part":
        return post ? (req, res, url) => this.uploadPart(req, res, url) : null;
      case "/api/import/finish_upload":
        return post ? (req, res) => this.finishUpload(req, res) : null;
      case "/api/perform_import":
        return post ? (req, res) => this.performImport(req, res) : null;
      case "/api/cancel_import":
        return post ? (req, res) => this.cancelImport(req, res) : null;
      case "/api/import":
        return post ? (req, res, url) => this.importInOneRequest(req, res, url) : null;
    }
    const download = /^\/api\/export\/zip\/([0-9]+)$/.exec(pathname);
    if (download && method === "GET")
      return (_req, res) => Promise.resolve(this.downloadExport(res, download[1]));
    return null;
  }

  private async requestExport(res: ServerResponse, url: URL): Promise<void> {
    const includeStorage = url.searchParams.get("includeStorage") === "true";
    const startTs = nowTs();
    const { zip } = await buildSnapshotZip(this.host.engine(), includeStorage);
    let file: string | null = null;
    if (this.host.store.dir) {
      const dir = path.join(this.host.store.dir, "exports");
      mkdirSync(dir, { recursive: true });
      file = path.join(dir, `snapshot_${startTs}.zip`);
      writeFileSync(file, zip, { mode: 0o600 });
      // Only the latest export is kept (it holds all the data: it is readable by this user only).
      for (const name of readdirSync(dir)) {
        if (name !== path.basename(file)) rmSync(path.join(dir, name), { force: true });
      }
    }
    this.latestExport = { startTs, completeTs: nowTs(), includeStorage, file, zip: file ? null : zip };
    await this.host.reportWrites(["_exports"]);
    sendOk(res);
  }

  private downloadExport(res: ServerResponse, ts: string): void {
    const latest = this.latestExport;
    if (!latest || latest.startTs.toString() !== ts) {
      throw new HttpError(404, "ExportNotFound", `There is no snapshot export at timestamp ${ts}.`);
    }
    let zip: Uint8Array;
    try {
      zip = latest.zip ?? readFileSync(latest.file!);
    } catch {
      throw new HttpError(404, "ExportNotFound", `The snapshot export at timestamp ${ts} is gone.`);
    }
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/zip");
    res.setHeader("Content-Length", zip.length);
    res.setHeader("Content-Disposition", `attachment; filename=snapshot_${ts}.zip`);
    res.setHeader("Cache-Control", "private, max-age=2592000");
    res.end(zip);
  }

  private startUpload(res: ServerResponse): void {
    const now = Date.now();
    for (const [token, upload] of this.uploads) {
      if (now - upload.created > UPLOAD_TTL_MS) this.uploads.delete(token);
    }
    const uploadToken = randomBytes(16).toString("hex");
    this.uploads.set(uploadToken, { parts: new Map(), bytes: 0, created: now });
    sendJson(res, 200, { uploadToken });
  }

  private async uploadPart(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = url.searchParams.get("uploadToken") ?? "";
    const partNumber = Number(url.searchParams.get("partNumber"));
    const upload = this.uploads.get(token);
    if (!upload)
      throw new HttpError(400, "InvalidUploadToken", "This upload token is not valid or has expired.");
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      throw new HttpError(400, "InvalidPartNumber", "`partNumber` must be between 1 and 10,000.");
    }
    const body = await readBody(req, MAX_PART_BYTES);
    upload.bytes += body.length;
    if (upload.bytes > MAX_UPLOAD_BYTES) {
      this.uploads.delete(token);
      throw new HttpError(413, "PayloadTooLarge", "The import is over 2 GB.");
    }
    const partToken = `${partNumber}:${randomBytes(8).toString("hex")}`;
    upload.parts.set(partToken, body);
    sendJson(res, 200, partToken);
  }

  private async finishUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req, finishUpload);
    const upload = this.uploads.get(body.uploadToken);
    if (!upload)
      throw new HttpError(400, "InvalidUploadToken", "This upload token is not valid or has expired.");
    this.uploads.delete(body.uploadToken);
    const parts = body.partTokens.map((token) => {
      const part = upload.parts.get(token);
      if (!part) throw new HttpError(400, "InvalidPartToken", `Unknown part token ${token.slice(0, 40)}`);
      return part;
    });
    const record = this.newImport(body.import);
    sendJson(res, 200, { importId: record.id });
    await this.prepareImport(record, Buffer.concat(parts));
  }

  private newImport(args: z.infer<typeof importArgs>): ImportRecord {
    if (args.componentPath) {
      throw new HttpError(400, "InvalidComponentPath", "The embedded backend runs no Convex components yet.");
    }
    if (args.format === "zip" && args.tableName) {
      throw new HttpError(400, "InvalidName", "ZIP import cannot have table name");
    }
    if (args.format !== "zip" && !args.tableName) {
      const kind = args.format === "csv" ? "CSV" : args.format === "jsonArray" ? "JSON" : "JSONL";
      throw new HttpError(400, "InvalidName", `${kind} import requires table name`);
    }
    this.importCounter += 1;
    const record: ImportRecord = {
      id: `${String(this.importCounter).padStart(27, "0")}_snapshot_imports`,
      creationTime: Date.now(),
      format: args.format,
      mode: args.mode,
      tableName: args.tableName ?? null,
      state: { state: "uploaded" },
      parsed: null,
    };
    this.imports.set(record.id, record);
    for (const id of [...this.imports.keys()].slice(0, Math.max(0, this.imports.size - KEPT_IMPORTS))) {
      this.imports.delete(id);
    }
    return record;
  }

  /** Parses the upload and says what the import would do (or why it cannot be done). */
  private async prepareImport(record: ImportRecord, bytes: Uint8Array): Promise<void> {
    try {
      const parsed = await parseImport(bytes, record.format, record.tableName);
      const plan = planImport(this.host.engine(), parsed, record.mode);
      record.parsed = parsed;
      record.state = {
        state: "waiting_for_confirmation",
        message_to_confirm: describePlan(plan, parsed.notes),
        require_manual_confirmation: plan.requireConfirmation,
      };
    } catch (e) {
      this.fail(record, e);
    }
    await this.host.reportWrites(["_snapshot_imports"]);
  }

  private fail(record: ImportRecord, e: unknown): void {
    if (!(e instanceof ImportError)) console.error("local-backend: import failed", e);
    record.parsed = null;
    record.state = {
      state: "failed",
      error_message: `Hit an error while importing:\n${e instanceof Error ? e.message : String(e)}`,
    };
  }

  private async performImport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { importId } = await readJson(req, importIdBody);
    const record = this.imports.get(importId);
    if (!record) throw new HttpError(400, "InvalidImport", `invalid import id ${importId}`);
    if (record.state.state !== "waiting_for_confirmation" || !record.parsed) {
      throw new HttpError(400, "InvalidImport", `Import ${importId} is not waiting for confirmation.`);
    }
    await this.run(record);
    sendOk(res);
  }

  private async run(record: ImportRecord): Promise<void> {
    const parsed = record.parsed!;
    record.state = { state: "in_progress", progress_message: "Importing", checkpoint_messages: [] };
    await this.host.reportWrites(["_snapshot_imports"]);
    try {
      // The tables it wrote are published with its commit (`Transactions.longWrite`).
      const { written } = await performImport(this.host.engine(), parsed, record.mode);
      record.state = { state: "completed", timestamp: nowTs(), num_rows_written: BigInt(written) };
      record.parsed = null;
    } catch (e) {
      this.fail(record, e);
    }
    await this.host.reportWrites(["_snapshot_imports"]);
  }

  private async cancelImport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { importId } = await readJson(req, importIdBody);
    const record = this.imports.get(importId);
    if (!record) throw new HttpError(400, "InvalidImport", `invalid import id ${importId}`);
    if (record.state.state === "waiting_for_confirmation" || record.state.state === "uploaded") {
      record.parsed = null;
      record.state = { state: "failed", error_message: "Import canceled" };
      await this.host.reportWrites(["_snapshot_imports"]);
    }
    sendOk(res);
  }

  /** `POST /api/import?format=…&tableName=…&mode=…` with the file as the body (older CLIs). */
  private async importInOneRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const args = importArgs.safeParse(Object.fromEntries(url.searchParams));
    if (!args.success) throw new HttpError(400, "BadRequest", "Invalid import parameters");
    const record = this.newImport(args.data);
    await this.prepareImport(record, await readBody(req, MAX_PART_BYTES));
    if (record.state.state === "waiting_for_confirmation") await this.run(record);
    const state = record.state;
    if (state.state !== "completed") {
      throw new HttpError(
        400,
        "ImportFailed",
        state.state === "failed" ? state.error_message : "Import failed",
      );
    }
    sendJson(res, 200, { numWritten: Number(state.num_rows_written) });
  }

  /** The system queries `export` and `import` poll (`udfPath` canonical), or null for another. */
  systemQuery(udfPath: string): SystemQueryEntry | null {
    switch (udfPath) {
      case "_system/cli/exports:getLatest":
        return { run: () => this.exportDocument(), readTables: ["_exports"] };
      case "_system/cli/queryImport:default":
        return {
          run: ({ importId }) => {
            const record = typeof importId === "string" ? this.imports.get(importId) : undefined;
            return record ? importDocument(record) : null;
          },
          readTables: ["_snapshot_imports"],
        };
      case "_system/cli/queryImport:list":
        return {
          run: () => [...this.imports.values()].reverse().map(importDocument),
          readTables: ["_snapshot_imports"],
        };
      default:
        return null;
    }
  }

  private exportDocument(): Value {
    const latest = this.latestExport;
    if (!latest) return null;
    return {
      _id: `${latest.startTs}_exports`,
      _creationTime: Number(latest.startTs / 1_000_000n),
      format: { format: "zip", include_storage: latest.includeStorage },
      requestor: "snapshotExport",
      start_ts: latest.startTs,
      complete_ts: latest.completeTs,
      expiration_ts: latest.completeTs + 14n * 24n * 3600n * 1_000_000_000n,
      state: "completed",
      zip_object_key: `snapshot_${latest.startTs}.zip`,
    };
  }
}

function importDocument(record: ImportRecord): Value {
  return {
    _id: record.id,
    _creationTime: record.creationTime,
    state: record.state,
    format: record.tableName ? { format: record.format, table: record.tableName } : { format: record.format },
    mode: record.mode,
    requestor: { type: "snapshotImport" },
  };
}
