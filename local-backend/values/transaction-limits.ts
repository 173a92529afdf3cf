/**
 * What one transaction (a query or mutation, with its nested calls) has read, written and scheduled,
 * against Convex's limits, failing with Convex's words the moment one is passed. As on Convex, only
 * documents of the app's own tables count as read and written (system tables have limits of their
 * own); index ranges of every table count, merged where they overlap or touch.
 */
import { LimitError, TRANSACTION_LIMITS, formatBytes, type TransactionLimits } from "./limits.ts";

const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

/** Disjoint key ranges per index, each kept sorted by its lower bound. */
class RangeSet {
  private readonly byIndex = new Map<string | number, [Buffer, Buffer][]>();
  count = 0;

  /** Adds `[lower, upper]`, merging the ranges it overlaps or touches. */
  add(index: string | number, lower: Buffer, upper: Buffer): void {
    let ranges = this.byIndex.get(index);
    if (!ranges) {
      ranges = [];
      this.byIndex.set(index, ranges);
    }
    // The first range that ends at or after `lower` (uppers are sorted too: the ranges are disjoint).
    let low = 0;
    let high = ranges.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (Buffer.compare(ranges[middle][1], lower) < 0) low = middle + 1;
      else high = middle;
    }
    let end = low;
    let mergedLower = lower;
    let mergedUpper = upper;
    while (end < ranges.length && Buffer.compare(ranges[end][0], upper) <= 0) {
      if (Buffer.compare(ranges[end][0], mergedLower) < 0) mergedLower = ranges[end][0];
      if (Buffer.compare(ranges[end][1], mergedUpper) > 0) mergedUpper = ranges[end][1];
      end += 1;
    }
    this.count += 1 - (end - low);
    ranges.splice(low, end - low, [mergedLower, mergedUpper]);
  }
}

/** What a nested call's `enter` saved: the limits to go back to and the writes to undo. */
export type MeterMark = { limits: TransactionLimits; documentsWritten: number; bytesWritten: number };

export class TransactionMeter {
  documentsRead = 0;
  bytesRead = 0;
  documentsWritten = 0;
  bytesWritten = 0;
  functionsScheduled = 0;
  scheduledFunctionArgsBytes = 0;
  limits: TransactionLimits = { ...TRANSACTION_LIMITS };
  private readonly ranges = new RangeSet();

  /** Index ranges read so far (Convex's "database queries"). */
  get databaseQueries(): number {
    return this.ranges.count;
  }

  /** A document of an app table read (counted before the check, as Convex counts the failing read). */
  read(bytes: number): void {
    this.documentsRead += 1;
    this.bytesRead += bytes;
    if (this.documentsRead > this.limits.documentsRead) {
      throw new LimitError(
        "TooManyDocumentsRead",
        `Too many documents read in a single function execution (limit: ${this.limits.documentsRead}). ${OVER_LIMIT_HELP}`,
        true,
      );
    }
    if (this.bytesRead > this.limits.bytesRead) {
      throw new LimitError(
        "TooManyBytesRead",
        `Too many bytes read in a single function execution (limit: ${this.limits.bytesRead} bytes). ${OVER_LIMIT_HELP}`,
        true,
      );
    }
  }

  /** Documents of app tables an isolate read and checked against these limits itself (decision 092). */
  readChecked(documents: number, bytes: number): void {
    this.documentsRead += documents;
    this.bytesRead += bytes;
  }

  /** An index range read (`db.get` reads one id's range); `checked` false as for `readChecked`. */
  range(index: string | number, lower: Buffer, upper: Buffer, checked = true): void {
    this.ranges.add(index, lower, upper);
    if (checked && this.ranges.count > this.limits.databaseQueries) {
      throw new LimitError(
        "TooManyReads",
        `Too many reads in a single function execution (limit: ${this.limits.databaseQueries}). ${OVER_LIMIT_HELP}`,
        true,
      );
    }
  }

  /** A document of an app table written (`bytes` 0 for a delete), before it is applied. */
  write(bytes: number): void {
    this.documentsWritten += 1;
    this.bytesWritten += bytes;
    if (this.documentsWritten > this.limits.documentsWritten) {
      throw new LimitError(
        "TooManyWrites",
        `Too many writes in a single function execution (limit: ${this.limits.documentsWritten})`,
      );
    }
    if (this.bytesWritten > this.limits.bytesWritten) {
      throw new LimitError(
        "TooManyBytesWritten",
        `Too many bytes written in a single function execution (limit: ${formatBytes(this.limits.bytesWritten)})`,
      );
    }
  }

  /** A function scheduled with arguments of `argsBytes` (the size of `[args]`), checked first. */
  schedule(argsBytes: number): void {
    if (this.functionsScheduled >= this.limits.functionsScheduled) {
      throw new LimitError(
        "TooManyFunctionsScheduled",
        `Too many functions scheduled by this mutation (limit: ${this.limits.functionsScheduled})`,
      );
    }
    if (this.scheduledFunctionArgsBytes + argsBytes > this.limits.scheduledFunctionArgsBytes) {
      throw new LimitError(
        "ScheduledFunctionsArgumentsTooLarge",
        `Too large total size of the arguments of scheduled functions from this mutation (limit: ${this.limits.scheduledFunctionArgsBytes} bytes)`,
      );
    }
    this.functionsScheduled += 1;
    this.scheduledFunctionArgsBytes += argsBytes;
  }

  /**
   * A nested call starts, with the `transactionLimits` its caller gave (a budget on top of what is
   * used so far, which can only lower the limits: Convex's `from_budget`).
   */
  enter(budget: Partial<TransactionLimits> | undefined): MeterMark {
    const mark = {
      limits: this.limits,
      documentsWritten: this.documentsWritten,
      bytesWritten: this.bytesWritten,
    };
    if (budget) {
      const used = this.metrics();
      const limits = { ...this.limits };
      for (const key of Object.keys(TRANSACTION_LIMITS) as (keyof TransactionLimits)[]) {
        const allowance = budget[key] ?? TRANSACTION_LIMITS[key];
        limits[key] = Math.min(used[key].used + allowance, this.limits[key]);
      }
      this.limits = limits;
    }
    return mark;
  }

  /** The nested call ended: its caller's limits again, and its writes undone if it rolled back. */
  leave(mark: MeterMark, rolledBack: boolean): void {
    this.limits = mark.limits;
    if (rolledBack) {
      this.documentsWritten = mark.documentsWritten;
      this.bytesWritten = mark.bytesWritten;
    }
  }

  /** `getTransactionMetrics()`: each limit's use and what remains. */
  metrics(): Record<keyof TransactionLimits, { used: number; remaining: number }> {
    const used: TransactionLimits = {
      bytesRead: this.bytesRead,
      documentsRead: this.documentsRead,
      databaseQueries: this.databaseQueries,
      documentsWritten: this.documentsWritten,
      bytesWritten: this.bytesWritten,
      functionsScheduled: this.functionsScheduled,
      scheduledFunctionArgsBytes: this.scheduledFunctionArgsBytes,
    };
    const out = {} as Record<keyof TransactionLimits, { used: number; remaining: number }>;
    for (const key of Object.keys(used) as (keyof TransactionLimits)[]) {
      out[key] = { used: used[key], remaining: this.limits[key] - used[key] };
    }
    return out;
  }
}

/**
 * A `transactionLimits` option as the syscall carries it: each field a count that is not negative
 * (others are ignored, as Convex reads only these).
 */
export function parseTransactionLimits(json: unknown): Partial<TransactionLimits> | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const budget: Partial<TransactionLimits> = {};
  for (const key of Object.keys(TRANSACTION_LIMITS) as (keyof TransactionLimits)[]) {
    const value = (json as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new LimitError(
        "InvalidArgument",
        `Invalid transactionLimits: ${key} must be a non-negative integer, got ${JSON.stringify(value)}`,
      );
    }
    budget[key] = value;
  }
  return budget;
}

/** What a transaction used of Convex's limits (a `TransactionMeter` is one). */
export type TransactionUsage = {
  documentsRead: number;
  bytesRead: number;
  documentsWritten: number;
  bytesWritten: number;
  databaseQueries: number;
};

export function noUsage(): TransactionUsage {
  return { documentsRead: 0, bytesRead: 0, documentsWritten: 0, bytesWritten: 0, databaseQueries: 0 };
}

/** Raises each of `into`'s figures to `usage`'s where that is larger. */
export function noteLargest(into: TransactionUsage, usage: TransactionUsage): void {
  for (const key of Object.keys(into) as (keyof TransactionUsage)[])
    into[key] = Math.max(into[key], usage[key]);
}
