/**
 * A thread's own CPU time, as the OS counts it: what a function's time limit is measured in, so that
 * an honest call never fails because the host is busy (waiting for a core, or blocked on a syscall's
 * answer, costs a thread no CPU time). Linux gives it per thread in `/proc`; elsewhere there is none,
 * and the caller falls back to time it measures itself.
 */
import { closeSync, openSync, readSync, readlinkSync } from "node:fs";

/** Linux's USER_HZ: `/proc`'s times are in these ticks (100 a second on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** The calling thread's OS id, or null where the OS does not show it. */
export function ownThreadId(): number | null {
  try {
    // `/proc/thread-self` links to `<pid>/task/<tid>`.
    return Number(readlinkSync("/proc/thread-self").split("/").pop()) || null;
  } catch {
    return null;
  }
}

/**
 * Milliseconds of CPU (user and system) a thread of this process has used: its `/proc` file opened
 * once and read again from its start on each look (opening the file anew costs several times the
 * read, and the pool looks twice a call). Null where the thread does not exist (or no longer does).
 */
export class ThreadCpuClock {
  private fd: number | null;
  private readonly buffer = Buffer.alloc(512);

  constructor(tid: number) {
    try {
      this.fd = openSync(`/proc/self/task/${tid}/stat`, "r");
    } catch {
      this.fd = null;
    }
  }

  ms(): number | null {
    if (this.fd === null) return null;
    let length: number;
    try {
      length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    } catch {
      return null;
    }
    const stat = this.buffer.toString("latin1", 0, length);
    // The fields after the command name (which may hold spaces) in parentheses: utime and stime are
    // the 14th and 15th of the line, the 12th and 13th after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
