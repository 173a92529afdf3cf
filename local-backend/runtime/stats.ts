/** Per-function statistics (`stats()`, `GET /local-backend/stats`): calls, errors, time, reads, writes. */
import type { FunctionKind } from "./execution.ts";
import type { CallRecord } from "./instrument.ts";
import { noUsage, noteLargest, type TransactionUsage } from "../values/transaction-limits.ts";

export type FunctionStats = {
  kind: FunctionKind | "http" | "scheduled";
  calls: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  docsRead: number;
  docsWritten: number;
  maxDocsRead: number;
  /** The most one transaction of one call used of Convex's limits. */
  largestTransaction: TransactionUsage;
  /** The most time one call's query or mutation code used (`CallRecord.userCodeMs`). */
  maxUserCodeMs: number;
  /** Syscalls sent from isolates to the backend's thread, in all (`CallRecord.crossings`). */
  crossings: number;
  readTables: string[];
  writeTables: string[];
};

export type EngineStats = { functions: Record<string, FunctionStats> };

export class FunctionStatsTable {
  private readonly stats = new Map<string, FunctionStats>();

  /** Adds one call of `udfPath`, as `record` saw it. */
  record(
    udfPath: string,
    kind: FunctionStats["kind"],
    record: CallRecord,
    durationMs: number,
    failed: boolean,
  ): void {
    let stats = this.stats.get(udfPath);
    if (!stats) {
      stats = {
        kind,
        calls: 0,
        errors: 0,
        totalMs: 0,
        maxMs: 0,
        docsRead: 0,
        docsWritten: 0,
        maxDocsRead: 0,
        largestTransaction: noUsage(),
        maxUserCodeMs: 0,
        crossings: 0,
        readTables: [],
        writeTables: [],
      };
      this.stats.set(udfPath, stats);
    }
    stats.calls += 1;
    if (failed) stats.errors += 1;
    stats.totalMs += durationMs;
    stats.maxMs = Math.max(stats.maxMs, durationMs);
    stats.docsRead += record.docsRead;
    stats.docsWritten += record.docsWritten;
    stats.maxDocsRead = Math.max(stats.maxDocsRead, record.docsRead);
    noteLargest(stats.largestTransaction, record.largestTransaction);
    stats.maxUserCodeMs = Math.max(stats.maxUserCodeMs, record.userCodeMs);
    stats.crossings += record.crossings;
    stats.readTables = [...new Set([...stats.readTables, ...record.readTables])].sort();
    stats.writeTables = [...new Set([...stats.writeTables, ...record.writes.tables])].sort();
  }

  get(): EngineStats {
    return {
      functions: Object.fromEntries(
        [...this.stats].map(([path, s]) => [path, { ...s, largestTransaction: { ...s.largestTransaction } }]),
      ),
    };
  }

  reset(): void {
    this.stats.clear();
  }
}
