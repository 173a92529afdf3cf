/**
 * What the Convex CLI asks a self-hosted deployment, beyond running functions: the HTTP endpoints of
 * `npx convex logs`, `env`, `export` and `import`, and the system queries (`_system/cli/…`) of `env`,
 * `function-spec`, `export` and `import`. `http.ts` lets only an admin (the admin key, from this
 * machine) reach the endpoints, and `LocalBackendCore.call` answers the system queries for admins.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { z } from "zod";
import type { Value } from "convex/values";
import type { LocalBackendEngine } from "../runtime/engine.ts";
import {
  ENV_VAR_LIMIT,
  ProcessEnv,
  checkEnvVarChange,
  envVarLimitMet,
  type EnvVarChange,
} from "./env-vars.ts";
import { FunctionLogs, type UdfType } from "./function-logs.ts";
import { HttpError, readBody, readJson } from "../api/http.ts";
import type { CliHandler } from "../api/services.ts";
import { canonicalizeUdfPath } from "../core/paths.ts";
import { buildSnapshotZip } from "./snapshot-export.ts";
import { ImportError, parseImport, type ImportFormat, type ParsedImport } from "./snapshot-parse.ts";
import { describePlan, performImport, planImport, type ImportMode } from "./snapshot-import.ts";
import type { SqliteStore } from "../database/store.ts";

/** What the CLI endpoints need from the backend (`LocalBackendCore`). */
export interface CliHost {
  engine(): LocalBackendEngine;
  readonly store: SqliteStore;
  /** The backend's URL (`_system/cli/convexUrl:cloudUrl`). */
  origin(): string;
  /** Module paths of the functions folder (`messages`, `dir/file`), without `_generated`. */
  modulePaths(): string[];
  /** Re-runs subscriptions reading these tables (the CLI waits on `_exports`, `_snapshot_imports`). */
  reportWrites(tables: Iterable<string>): void;
}

type SystemQuery = (args: Record<string, unknown>) => Promise<Value> | Value;

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
const envChanges = z.object({
  changes: z.array(z.object({ name: z.string().max(1024), value: z.string().nullish() })).max(1000),
});

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

function sendOk(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader("Content-Length", 0);
  res.end();
}

/** Convex timestamps are nanoseconds. */
function nowTs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

export class CliApi {
  readonly logs = new FunctionLogs();
  private readonly env = new ProcessEnv();
  private latestExport: ExportRecord | null = null;
  private readonly uploads = new Map<
    string,
    { parts: Map<string, Buffer>; bytes: number; created: number }
  >();
  private readonly imports = new Map<string, ImportRecord>();
  private importCounter = 0;
  private readonly kinds = new Map<string, UdfType>();
  private pendingBackground = new Map<string, string[]>();

  constructor(private readonly host: CliHost) {}

  /** Puts the stored environment variables on `process.env` (before any function runs). */
  start(): void {
    this.env.apply(this.host.store.environmentVariables());
  }

  /** Answers waiting log polls and gives `process.env` its values from before. */
  stop(): void {
    this.logs.close();
    this.env.restore();
  }

  // -- Function logs ---------------------------------------------------------------------------

  /** A function call's execution, for `npx convex logs` (the CLI's own system queries are not kept). */
  async recordCall(
    udfPath: string,
    kind: "query" | "mutation" | "action" | undefined,
    outcome: { success: boolean; logLines: string[]; durationMs: number; errorMessage?: string },
  ): Promise<void> {
    if (udfPath.startsWith("_system/")) return;
    const udfType = kind ? KIND_TYPES[kind] : await this.kindOf(udfPath);
    if (!udfType) return;
    this.logs.record({
      udfType,
      identifier: udfPath,
      logLines: outcome.logLines,
      executionTimeMs: outcome.durationMs,
      error: outcome.success ? null : (outcome.errorMessage ?? "Error"),
    });
  }

  /**
   * A log line of work no client waits for (scheduled functions, HTTP actions): the lines of one run
   * arrive together, and are kept as one entry.
   */
  recordBackgroundLog(line: string, udfPath: string): void {
    const pending = this.pendingBackground.get(udfPath);
    if (pending) {
      pending.push(line);
      return;
    }
    this.pendingBackground.set(udfPath, [line]);
    queueMicrotask(() => {
      const lines = this.pendingBackground.get(udfPath) ?? [];
      this.pendingBackground.delete(udfPath);
      const http = /^http ([A-Z]+ .*)$/.exec(udfPath);
      const record = (udfType: UdfType | null, identifier: string) => {
        if (udfType) this.logs.record({ udfType, identifier, logLines: lines, executionTimeMs: 0 });
      };
      if (http) record("HttpAction", http[1]);
      else void this.kindOf(udfPath).then((udfType) => record(udfType ?? "Action", udfPath));
    });
  }

  /** Functions may have changed kind (a reload). */
  forgetKinds(): void {
    this.kinds.clear();
  }

  private async kindOf(udfPath: string): Promise<UdfType | null> {
    const known = this.kinds.get(udfPath);
    if (known) return known;
    const info = await this.host
      .engine()
      .describe(udfPath)
      .catch(() => null);
    if (!info) return null;
    const udfType = KIND_TYPES[info.kind];
    this.kinds.set(udfPath, udfType);
    return udfType;
  }

  // -- HTTP endpoints --------------------------------------------------------------------------

  /** The handler of a CLI endpoint (admin only; `http.ts` checks), or null for other requests. */
  route(method: string, pathname: string): CliHandler | null {
    const post = method === "POST";
    switch (pathname) {
      case "/api/stream_function_logs":
      case "/api/stream_udf_execution":
        return method === "GET" ? (_req, res, url) => this.streamLogs(res, url) : null;
      case "/api/update_environment_variables":
        return post ? (req, res) => this.updateEnvironmentVariables(req, res) : null;
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

  private async streamLogs(res: ServerResponse, url: URL): Promise<void> {
    const cursor = Number(url.searchParams.get("cursor") ?? "0");
    if (!Number.isFinite(cursor)) throw new HttpError(400, "BadRequest", "`cursor` must be a number");
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    const answer = await this.logs.poll(cursor, aborted.signal);
    if (!res.writableEnded && !res.destroyed) sendJson(res, 200, answer);
  }

  private async updateEnvironmentVariables(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { changes } = await readJson(req, envChanges);
    const normalized: EnvVarChange[] = changes.map((c) => ({ name: c.name, value: c.value ?? null }));
    for (const change of normalized) {
      const error = checkEnvVarChange(change);
      if (error) throw new HttpError(400, error.code, error.message);
    }
    const engine = this.host.engine();
    await engine.runner.exclusive(() => {
      const names = new Set(this.host.store.environmentVariables().map((v) => v.name));
      for (const { name, value } of normalized) {
        if (value === null) names.delete(name);
        else names.add(name);
      }
      if (names.size > ENV_VAR_LIMIT) {
        const { code, message } = envVarLimitMet();
        throw new HttpError(400, code, message);
      }
      this.host.store.updateEnvironmentVariables(normalized);
    }, true);
    this.env.apply(this.host.store.environmentVariables());
    this.host.reportWrites(["_environment_variables"]);
    sendOk(res);
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
    this.host.reportWrites(["_exports"]);
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
    this.host.reportWrites(["_snapshot_imports"]);
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
    this.host.reportWrites(["_snapshot_imports"]);
    try {
      const { written, tables } = await performImport(this.host.engine(), parsed, record.mode);
      record.state = { state: "completed", timestamp: nowTs(), num_rows_written: BigInt(written) };
      record.parsed = null;
      this.host.reportWrites([...tables, "_snapshot_imports"]);
    } catch (e) {
      this.fail(record, e);
      this.host.reportWrites(["_snapshot_imports"]);
    }
  }

  private async cancelImport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { importId } = await readJson(req, importIdBody);
    const record = this.imports.get(importId);
    if (!record) throw new HttpError(400, "InvalidImport", `invalid import id ${importId}`);
    if (record.state.state === "waiting_for_confirmation" || record.state.state === "uploaded") {
      record.parsed = null;
      record.state = { state: "failed", error_message: "Import canceled" };
      this.host.reportWrites(["_snapshot_imports"]);
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

  // -- System queries --------------------------------------------------------------------------

  /**
   * The value of one of the CLI's system queries and the (pseudo) tables it reads, so a subscription
   * to it re-runs when they change; null when `udfPath` is not one of them.
   */
  systemQuery(udfPath: string): { run: SystemQuery; readTables: string[] } | null {
    switch (canonicalizeUdfPath(udfPath)) {
      case "_system/cli/queryEnvironmentVariables:default":
        return { run: () => this.host.store.environmentVariables(), readTables: ["_environment_variables"] };
      case "_system/cli/queryEnvironmentVariables:get":
        return {
          run: ({ name }) => this.host.store.environmentVariables().find((v) => v.name === name) ?? null,
          readTables: ["_environment_variables"],
        };
      case "_system/cli/modules:apiSpec":
        return { run: () => this.apiSpec(), readTables: [] };
      case "_system/cli/convexUrl:cloudUrl":
        return { run: () => this.host.origin(), readTables: [] };
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

  /** Every function (and HTTP route) the functions folder exports, as Convex's `apiSpec` lists them. */
  private async apiSpec(): Promise<Value> {
    const engine = this.host.engine();
    const specs: Value[] = [];
    for (const modulePath of this.host.modulePaths().sort()) {
      let module: Record<string, unknown> | null;
      try {
        module = await engine.loadModule(modulePath);
      } catch {
        continue;
      }
      for (const [name, fn] of Object.entries(module ?? {})) {
        const spec = functionSpec(`${modulePath}.js:${name}`, fn);
        if (spec) specs.push(spec);
      }
      if (modulePath === "http") specs.push(...httpRoutes(module?.default));
    }
    return specs;
  }
}

const KIND_TYPES: Record<"query" | "mutation" | "action", UdfType> = {
  query: "Query",
  mutation: "Mutation",
  action: "Action",
};

type RegisteredFunction = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  isInternal?: boolean;
  exportArgs?: () => string;
  exportReturns?: () => string;
};

function parseValidator(text: string | undefined): Value {
  const parsed = text === undefined ? null : (JSON.parse(text) as Value);
  return parsed ?? { type: "any" };
}

function functionSpec(identifier: string, value: unknown): Value | null {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) return null;
  const fn = value as RegisteredFunction;
  const functionType = fn.isQuery ? "Query" : fn.isMutation ? "Mutation" : fn.isAction ? "Action" : null;
  if (!functionType || typeof fn.exportArgs !== "function") return null;
  return {
    identifier,
    functionType,
    visibility: { kind: fn.isInternal ? "internal" : "public" },
    args: parseValidator(fn.exportArgs()),
    returns: parseValidator(typeof fn.exportReturns === "function" ? fn.exportReturns() : undefined),
  };
}

function httpRoutes(router: unknown): Value[] {
  const routes = (
    router as { getRoutes?: () => readonly (readonly [string, string, unknown])[] } | undefined
  )?.getRoutes?.();
  return (routes ?? []).map(([path, method]) => ({ functionType: "HttpAction", method, path }));
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
