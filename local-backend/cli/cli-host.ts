/** What the Convex CLI's surfaces (cli-api.ts and the `*-api.ts` files it routes to) share. */
import type { Value } from "convex/values";
import type { LocalBackendEngine } from "../runtime/engine.ts";
import type { SqliteStore } from "../database/store.ts";

/** What the CLI endpoints need from the backend (`LocalBackendCore`). */
export interface CliHost {
  engine(): LocalBackendEngine;
  readonly store: SqliteStore;
  /** The backend's URL (`_system/cli/convexUrl:cloudUrl`). */
  origin(): string;
  /** Module paths of the functions folder (`messages`, `dir/file`), without `_generated`. */
  modulePaths(): string[];
  /**
   * The CLI's own state of these (pseudo) tables changed (`_exports`, `_snapshot_imports`: kept outside
   * the documents): committed as a write of them by the database layer, which publishes it, so the
   * subscriptions reading them (the CLI waits on them) re-run. Resolves once it is published.
   */
  reportWrites(tables: Iterable<string>): Promise<void>;
}

export type SystemQuery = (args: Record<string, unknown>) => Promise<Value> | Value;
/**
 * One of the CLI's system queries (`_system/cli/…`) and the (pseudo) tables it reads, so a subscription
 * to it re-runs when they change.
 */
export type SystemQueryEntry = { run: SystemQuery; readTables: string[] };
