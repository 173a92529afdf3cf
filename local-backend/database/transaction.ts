/**
 * Transactions: queries and mutations run one at a time (serializable, like Convex's committer),
 * each inside a SQLite transaction; one is over only once its commit is on disk. A nested call of a
 * query or mutation is a savepoint of its caller's. Each commit's writes are published once, to the
 * commit log, as it commits.
 */
import { WriteSet } from "../storage/read-set.ts";
import type { ComponentPath } from "../storage/document.ts";
import type { SqliteStore } from "./store.ts";
import type { CommitLog } from "./commit-log.ts";
import type { QueryStream } from "./query-stream.ts";
import { TransactionMeter, noteLargest, type TransactionUsage } from "../values/transaction-limits.ts";

/** A transaction holding the database longer than this is stopped and rolled back. */
const TRANSACTION_TIMEOUT_MS = 30_000;

/** An error of the backend itself: the caller sees its message as it is (no `Uncaught`, no frames). */
export class ConvexSystemError extends Error {}

/** A job a transaction scheduled, started once the transaction is committed. */
export type ScheduledJob = { id: string; component: ComponentPath; time: number };

export type Transaction = {
  component: ComponentPath;
  /** What it read and wrote against Convex's limits (shared with nested calls). */
  meter: TransactionMeter;
  /** Stored files to remove once the deletion is committed. */
  deletedFiles: string[];
  /** Scheduled jobs to start once committed. */
  scheduled: ScheduledJob[];
  closed: boolean;
  /** `.paginate()` calls so far (Convex allows one per function). */
  paginated: number;
  streams: Map<number, QueryStream>;
  /** Query ids are never reused within a transaction (one may close while another stays open). */
  nextQueryId: number;
  /**
   * The first database error a syscall met (shared with nested calls): the call fails with it even if
   * the function caught it, since SQLite may have rolled the transaction back underneath.
   */
  failure: { error: Error | null };
};

export function newTransaction(component: ComponentPath): Transaction {
  return {
    component,
    meter: new TransactionMeter(),
    deletedFiles: [],
    scheduled: [],
    closed: false,
    paginated: 0,
    streams: new Map(),
    nextQueryId: 0,
    failure: { error: null },
  };
}

/** A promise-chain mutex: the database is used by one transaction at a time. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

/**
 * A long write in progress (`longWrite`): reads that start meanwhile wait for `ready`, then, if the
 * store reads from its snapshot connection (`on`), take turns there under `lock` instead of waiting
 * for the write.
 */
type SnapshotReads = { ready: Promise<void>; lock: Mutex; on: boolean };

/** What a commit tells the call it belongs to (its `CallRecord`), while that call is running. */
export type CommitRecord = {
  active: boolean;
  writes: WriteSet;
  docsWritten: number;
  /** The most any one of the call's transactions used of Convex's limits. */
  largestTransaction: TransactionUsage;
  commitTs: bigint | null;
};

export class Transactions {
  private readonly lock = new Mutex();
  private snapshotReads: SnapshotReads | null = null;

  constructor(
    private readonly store: SqliteStore,
    private readonly commits: CommitLog,
    /** Starts a job a transaction scheduled, once its commit is on disk. */
    private readonly startJob: (job: ScheduledJob) => void,
  ) {}

  /** Runs `work` in a new top-level transaction of `component` (taking the database). */
  async run<T>(
    component: ComponentPath,
    record: CommitRecord,
    writes: boolean,
    work: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const release = writes ? await this.lock.acquire() : await this.readLock();
    const tx = newTransaction(component);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let result: T;
    let begun = false;
    /** When the COMMIT of a transaction that wrote something began (its time to disk is measured). */
    let committing: number | null = null;
    try {
      // A read runs in a read transaction: no other transaction runs while it holds the lock, so it
      // would see one committed state anyway, but a statement outside a transaction takes and drops
      // SQLite's read lock itself (a query of 27 index reads spent a tenth of its time there).
      if (writes) this.store.begin();
      else this.store.beginRead();
      begun = true;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `Function execution timed out (it held the database for more than ${TRANSACTION_TIMEOUT_MS / 1000} s)`,
              ),
            ),
          TRANSACTION_TIMEOUT_MS,
        );
        timer.unref?.();
      });
      result = await Promise.race([work(tx), timeout]);
      if (tx.failure.error) throw tx.failure.error;
      tx.closed = true;
      if (writes) {
        const started = performance.now();
        const written = this.store.commitLater();
        if (!written.isEmpty) committing = started;
        this.afterCommit(tx, record, written);
      } else {
        this.store.endRead();
      }
    } catch (e) {
      tx.closed = true;
      // The call fails with its own error; undoing the transaction after a database error may fail
      // too (SQLite ended it already), and must not hide that error nor keep the lock.
      if (begun) {
        try {
          if (writes) this.store.rollback();
          else this.store.endRead();
        } catch {
          // Told with the first error.
        }
      }
      throw this.databaseError(e, tx);
    } finally {
      clearTimeout(timer);
      release();
      noteLargest(record.largestTransaction, tx.meter);
    }
    // Nothing a function returns leaves before what it wrote, or read, is on disk (decision 041): the
    // next transaction may run meanwhile, and subscriptions re-run, but their answers wait too.
    await this.store.durable();
    if (committing !== null) this.commits.durable(performance.now() - committing);
    return result;
  }

  /**
   * The turn of a transaction that only reads: the database's, or during a long write that lets
   * reads through, a turn on the snapshot connection.
   */
  private async readLock(): Promise<() => void> {
    const snapshot = this.snapshotReads;
    if (snapshot) {
      await snapshot.ready;
      const release = await snapshot.lock.acquire();
      if (snapshot.on) return release;
      release();
    }
    return await this.lock.acquire();
  }

  /**
   * Runs a long write (an import) as one transaction without holding up reads (decision 070): `work`
   * does its writing in synchronous parts through `part`, with a turn of the event loop before each,
   * while functions that only read run on the database as last committed (the store's snapshot
   * connection) and those that write wait. All or nothing; no function timeout (it is not a
   * function). In memory, where there is no second connection, reads wait too.
   */
  async longWrite<T>(
    record: CommitRecord,
    work: (part: <R>(write: () => R) => Promise<R>) => Promise<T>,
  ): Promise<T> {
    let ready!: () => void;
    const snapshot: SnapshotReads = {
      ready: new Promise<void>((resolve) => (ready = resolve)),
      lock: new Mutex(),
      on: false,
    };
    // Reads that start from now on wait for the snapshot, not behind the write.
    this.snapshotReads = snapshot;
    const release = await this.lock.acquire();
    let writes: WriteSet;
    let result: T;
    let committing: number;
    try {
      let begun = false;
      try {
        this.store.begin();
        begun = true;
        snapshot.on = this.store.beginSnapshotReads();
        ready();
        const part = async <R>(write: () => R): Promise<R> => {
          await new Promise<void>((resolve) => setImmediate(resolve));
          return this.store.onWriter(write);
        };
        result = await work(part);
        committing = performance.now();
        writes = this.store.onWriter(() => this.store.commitLater());
      } catch (e) {
        try {
          if (begun) this.store.onWriter(() => this.store.rollback());
        } catch {
          // Told with the first error.
        }
        throw this.databaseError(e, null);
      } finally {
        // Reads under way on the snapshot finish there; later ones take the database's turn.
        ready();
        const drained = await snapshot.lock.acquire();
        snapshot.on = false;
        if (this.snapshotReads === snapshot) this.snapshotReads = null;
        this.store.endSnapshotReads();
        drained();
      }
      // Told by table: every read of them re-runs, as after any import, without a merge of each key.
      this.afterCommit(newTransaction(""), record, WriteSet.ofTables(writes.tables));
    } finally {
      release();
    }
    await this.store.durable();
    if (!writes.isEmpty) this.commits.durable(performance.now() - committing);
    return result;
  }

  /**
   * A database error (a damaged page, a full disk) as the call's error, in words without the server's
   * paths (the operator is told those); noted on `tx` so the whole call fails. Others as they are.
   */
  databaseError(e: unknown, tx: Transaction | null): unknown {
    if (e instanceof ConvexSystemError) return e;
    const failure = this.store.describeFailure(e);
    if (!failure) return e;
    const error = new ConvexSystemError(failure.caller, { cause: e });
    if (tx) tx.failure.error ??= error;
    return error;
  }

  async nested<T>(
    parent: Transaction,
    component: ComponentPath,
    writes: boolean,
    work: (tx: Transaction) => Promise<T>,
    budget?: Parameters<TransactionMeter["enter"]>[0],
  ): Promise<T> {
    const tx: Transaction = { ...newTransaction(component), meter: parent.meter, failure: parent.failure };
    const mark = tx.meter.enter(budget);
    let committed = !writes;
    this.store.begin();
    try {
      const result = await work(tx);
      if (tx.failure.error) throw tx.failure.error;
      if (writes) {
        this.store.commit();
        committed = true;
        parent.deletedFiles.push(...tx.deletedFiles);
        parent.scheduled.push(...tx.scheduled);
      } else {
        this.store.rollback();
      }
      return result;
    } catch (e) {
      try {
        this.store.rollback();
      } catch {
        // The outer transaction fails with the first error (`failure`).
      }
      throw this.databaseError(e, tx);
    } finally {
      tx.closed = true;
      tx.meter.leave(mark, !committed);
    }
  }

  private afterCommit(tx: Transaction, record: CommitRecord, writes: WriteSet): void {
    // A deleted file goes, and a scheduled job may start, only once the commit is on disk.
    if (tx.deletedFiles.length > 0 || tx.scheduled.length > 0) {
      void this.store.durable().then(
        () => {
          for (const id of tx.deletedFiles) this.store.removeStoredFile(id);
          for (const job of tx.scheduled) this.startJob(job);
        },
        () => undefined,
      );
    }
    if (writes.isEmpty) return;
    if (record.active) {
      record.writes.merge(writes);
      record.docsWritten += tx.meter.documentsWritten;
    }
    const ts = this.commits.publish(writes);
    if (record.active) record.commitTs = ts;
  }
}
