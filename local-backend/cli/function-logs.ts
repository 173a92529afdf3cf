/**
 * Recent function executions and their log lines, for `npx convex logs`: a bounded in-memory ring
 * (the oldest entries drop out; nothing is kept across restarts, as Convex keeps only recent logs too)
 * answered to `GET /api/stream_function_logs?cursor=<ms>` in Convex's shape, with a long poll.
 */

export type UdfType = "Query" | "Mutation" | "Action" | "HttpAction";

/** One execution, as Convex's `stream_function_logs` sends it (`FunctionExecutionJson`). */
export type FunctionLogEntry = {
  kind: "Completion";
  udfType: UdfType;
  /** `messages:send`, or `GET /path` for an HTTP action. */
  identifier: string;
  /** `[LOG] 'text'`, `[ERROR] …`: the level in brackets, then the message. */
  logLines: string[];
  /** Seconds since the epoch (when it finished). */
  timestamp: number;
  /** Seconds. */
  executionTime: number;
  cachedResult: boolean;
  success: null;
  error: string | null;
  requestId: string;
};

type Stored = { cursor: number; entry: FunctionLogEntry };
type Waiter = { after: number; resolve: (answer: LogsAnswer) => void; timer: ReturnType<typeof setTimeout> };
export type LogsAnswer = { entries: FunctionLogEntry[]; newCursor: number };

/** How many executions are kept. */
export const MAX_LOG_ENTRIES = 10_000;
/** A poll with nothing new waits this long, then answers with nothing (Convex: 60 s). */
export const LONG_POLL_MS = 60_000;
/** Log lines kept per execution (Convex also truncates). */
const MAX_LINES_PER_ENTRY = 256;

export class FunctionLogs {
  private readonly entries: Stored[] = [];
  /** Index of the oldest entry in `entries` (a ring without moving the array). */
  private start = 0;
  private lastCursor = 0;
  private waiters = new Set<Waiter>();
  private requests = 0;

  constructor(
    private readonly capacity = MAX_LOG_ENTRIES,
    private readonly longPollMs = LONG_POLL_MS,
  ) {}

  /** Records one execution; `timestamp` and `requestId` are filled in. */
  record(entry: {
    udfType: UdfType;
    identifier: string;
    logLines: string[];
    executionTimeMs: number;
    error?: string | null;
  }): void {
    // Cursors are milliseconds and strictly increasing, also past any cursor already handed out.
    const cursor = Math.max(Date.now(), this.lastCursor + 0.001);
    this.lastCursor = cursor;
    this.requests += 1;
    const lines =
      entry.logLines.length > MAX_LINES_PER_ENTRY
        ? [
            ...entry.logLines.slice(0, MAX_LINES_PER_ENTRY),
            `[WARN] ${entry.logLines.length - MAX_LINES_PER_ENTRY} more log lines not kept`,
          ]
        : [...entry.logLines];
    const stored: Stored = {
      cursor,
      entry: {
        kind: "Completion",
        udfType: entry.udfType,
        identifier: entry.identifier,
        logLines: lines,
        timestamp: cursor / 1000,
        executionTime: entry.executionTimeMs / 1000,
        cachedResult: false,
        success: null,
        error: entry.error ?? null,
        requestId: `local-${this.requests.toString(36)}`,
      },
    };
    if (this.entries.length < this.capacity) {
      this.entries.push(stored);
    } else {
      this.entries[this.start] = stored;
      this.start = (this.start + 1) % this.capacity;
    }
    for (const waiter of [...this.waiters]) {
      if (cursor > waiter.after) this.answer(waiter, this.since(waiter.after));
    }
  }

  /** Entries after `cursor`, oldest first (walks back from the newest: as much work as the answer). */
  since(cursor: number): LogsAnswer {
    const entries: FunctionLogEntry[] = [];
    const count = this.entries.length;
    for (let i = count - 1; i >= 0; i--) {
      const stored = this.entries[(this.start + i) % count];
      if (stored.cursor <= cursor) break;
      entries.push(stored.entry);
    }
    return { entries: entries.reverse(), newCursor: Math.max(cursor, this.lastCursor) };
  }

  /**
   * Convex's long poll: entries after `cursor` as soon as there are any, or none after the poll's
   * time. The first poll (`cursor` 0, how `npx convex logs` starts) is answered at once with what is
   * kept, so the CLI's `--history` has something to show and nothing new is dropped while it waits.
   */
  poll(cursor: number, signal?: AbortSignal): Promise<LogsAnswer> {
    const now = this.since(cursor);
    if (now.entries.length > 0 || !(cursor > 0) || !Number.isFinite(cursor)) {
      // Never 0 (the CLI would ask again at once), and no later entry can be at or below it.
      const newCursor = Math.max(now.newCursor, Date.now());
      this.lastCursor = Math.max(this.lastCursor, newCursor);
      return Promise.resolve({ entries: now.entries, newCursor });
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        after: cursor,
        resolve,
        timer: setTimeout(() => this.answer(waiter, { entries: [], newCursor: cursor }), this.longPollMs),
      };
      waiter.timer.unref?.();
      this.waiters.add(waiter);
      signal?.addEventListener("abort", () => this.answer(waiter, { entries: [], newCursor: cursor }), {
        once: true,
      });
    });
  }

  /** Answers every waiting poll (the backend is stopping). */
  close(): void {
    for (const waiter of [...this.waiters]) this.answer(waiter, { entries: [], newCursor: waiter.after });
  }

  get size(): number {
    return this.entries.length;
  }

  private answer(waiter: Waiter, answer: LogsAnswer): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(answer);
  }
}
