/**
 * The app's calls against Convex's per-transaction limits (issue 39): from a backend's statistics, the
 * largest transaction of each function it ran and the most code time one call of it used, heaviest
 * first, as a share of each limit (with its syscalls that crossed from its isolate, on average); each
 * heavy call is a figure that must stay within Convex's limits.
 */
import { QUERY_MUTATION_TIMEOUT_MS } from "../../local-backend/runtime/isolate/protocol";
import { TRANSACTION_LIMITS, formatBinarySize } from "../../local-backend/values/limits";
import type { BackendProcess } from "./backend-process";
import { recordFigure } from "./stats";

export const ISSUE_39 = "Issue 39: the app's calls within Convex's transaction limits";

type Usage = {
  documentsRead: number;
  bytesRead: number;
  documentsWritten: number;
  bytesWritten: number;
  databaseQueries: number;
};

const LIMITED: [keyof Usage, string, (n: number) => string][] = [
  ["documentsRead", "documents read", String],
  ["bytesRead", "bytes read", formatBinarySize],
  ["databaseQueries", "index ranges", String],
  ["documentsWritten", "documents written", String],
  ["bytesWritten", "bytes written", formatBinarySize],
];

const percent = (used: number, limit: number) =>
  `${((100 * used) / limit).toFixed(used < limit / 100 ? 2 : 1)}%`;

/** Prints the `top` heaviest functions `backend` ran (by their largest share of any limit), and records them. */
export async function printLimitUse(backend: BackendProcess, label: string, top = 6): Promise<void> {
  const stats = (await backend.stats()) as unknown as Record<
    string,
    { largestTransaction?: Usage; maxUserCodeMs?: number; calls: number; crossings?: number }
  >;
  const share = ({ usage, codeMs }: { usage: Usage; codeMs: number }) =>
    Math.max(
      codeMs / QUERY_MUTATION_TIMEOUT_MS,
      ...LIMITED.map(([key]) => usage[key] / TRANSACTION_LIMITS[key]),
    );
  const rows = Object.entries(stats)
    .flatMap(([name, s]) =>
      s.largestTransaction
        ? [
            {
              name,
              usage: s.largestTransaction,
              codeMs: s.maxUserCodeMs ?? 0,
              crossings: (s.crossings ?? 0) / Math.max(1, s.calls),
            },
          ]
        : [],
    )
    .sort((a, b) => share(b) - share(a))
    .slice(0, top);
  console.log(
    `\nConvex's limits, ${label}: each function's largest transaction and its longest code time (share of the limit)`,
  );
  for (const row of rows) {
    const { name, usage, codeMs, crossings } = row;
    const parts = LIMITED.map(
      ([key, words, format]) =>
        `${words} ${format(usage[key])} (${percent(usage[key], TRANSACTION_LIMITS[key])})`,
    );
    parts.push(
      `code ${Math.round(codeMs)} ms of CPU (${percent(codeMs, QUERY_MUTATION_TIMEOUT_MS)} of ${QUERY_MUTATION_TIMEOUT_MS / 1000} s)`,
      // Syscalls sent from its isolate to the backend's thread (decisions 082, 092).
      `${crossings.toFixed(1)} crossings a call`,
    );
    console.log(`  ${name}\n    ${parts.join(", ")}`);
    const heaviest = share(row);
    recordFigure({
      group: ISSUE_39,
      figure: `${name}, ${label}: largest share of a limit`,
      measured: percent(heaviest, 1),
      budget: "≤ 100% (Convex fails the call)",
      ok: heaviest <= 1,
    });
  }
}
