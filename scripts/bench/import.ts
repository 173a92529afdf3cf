/**
 * Part of `npm run bench` (alone: `npm run bench:import`): a control client's reads while the
 * standalone backend imports 200,000 rows (issue 38, item 5; decision 070). Before it, the import's
 * write held the database in one stretch and a read waited for all of it (14.9–17.5 s here). The
 * backend runs in its own process on a throwaway store; the control client reads one small index
 * range in a loop, before the import and while it is written, and each wait is recorded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { AdminKey } from "../../local-backend/api/admin-key";
import {
  newHttpClient,
  q,
  spawnFixtureBackend,
  uploadImport,
} from "../../local-backend/conformance/test-helpers";
import { ms, printFigures, ratio, recordFigure, summarize } from "./stats";

const ROWS = 200_000;
const IDLE_READS = 200;
/** The longest a read may wait while an import is written. */
const LONGEST_WAIT_MS = 1000;
export const ISSUE_38 = "Issue 38: an import's write does not hold up reads (standalone backend process)";

export async function importWhileReading(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-import-"));
  const backend = await spawnFixtureBackend(dataDir);
  try {
    const adminKey = AdminKey.load(dataDir).value;
    const post = async (route: string, body: string): Promise<unknown> => {
      const response = await fetch(`${backend.url}${route}`, {
        method: "POST",
        headers: { Authorization: `Convex ${adminKey}` },
        body,
      });
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      const text = await response.text();
      return text === "" ? null : JSON.parse(text);
    };
    const control = newHttpClient(backend.url);
    const read = async (): Promise<number> => {
      const started = performance.now();
      await control.query(q("messages:count"), { channel: "control" });
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) await read();
    const idle: number[] = [];
    for (let i = 0; i < IDLE_READS; i++) idle.push(await read());

    const rows = Array.from({ length: ROWS }, (_, i) =>
      JSON.stringify({ channel: "imported", author: "import", body: `row ${i}` }),
    );
    const importId = await uploadImport(post, rows);
    // Parsed between turns of the event loop (decision 057), then waiting for confirmation.
    for (;;) {
      const state = await importStateOf(backend.url, adminKey, importId);
      if (state === "waiting_for_confirmation") break;
      if (state !== "uploaded") throw new Error(`the import is ${state}`);
    }
    let done = false;
    const started = performance.now();
    const performed = post("/api/perform_import", JSON.stringify({ importId })).finally(() => (done = true));
    const during: number[] = [];
    while (!done) during.push(await read());
    await performed;
    const seconds = (performance.now() - started) / 1000;
    const state = await importStateOf(backend.url, adminKey, importId);
    if (state !== "completed") throw new Error(`the import ended ${state}`);

    const calm = summarize(idle);
    const busy = summarize(during);
    console.log(`\nImport: a control client's reads while ${ROWS.toLocaleString("en-US")} rows are imported`);
    console.log(
      `  idle: ${calm.n} reads, median ${ms(calm.median)}, p95 ${ms(calm.p95)}, max ${ms(calm.max)}`,
    );
    console.log(
      `  during the import (${seconds.toFixed(1)} s): ${busy.n} reads answered, median ${ms(busy.median)}, p95 ${ms(busy.p95)}, max ${ms(busy.max)}; p95 ${ratio(busy.p95 / calm.p95)} idle`,
    );
    const verdict = recordFigure({
      group: ISSUE_38,
      figure: `longest wait for a read during a ${ROWS.toLocaleString("en-US")}-row import`,
      measured: ms(busy.max, LONGEST_WAIT_MS),
      budget: `≤ ${LONGEST_WAIT_MS} ms`,
      ok: busy.max <= LONGEST_WAIT_MS && busy.n > 1,
    });
    console.log(
      `  longest wait ${ms(busy.max, LONGEST_WAIT_MS)} — ${verdict} (budget: ≤ ${LONGEST_WAIT_MS} ms)`,
    );
  } finally {
    backend.child.kill("SIGTERM");
    await backend.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The import's state as `npx convex import` polls it (`_system/cli/queryImport`). */
export async function importStateOf(url: string, adminKey: string, importId: string): Promise<string> {
  const response = await fetch(`${url}/api/query`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ path: "_system/cli/queryImport", args: { importId }, format: "json" }),
  });
  const answer = (await response.json()) as { status: string; value?: { state: { state: string } } };
  if (answer.status !== "success" || !answer.value) throw new Error(`queryImport: ${JSON.stringify(answer)}`);
  return answer.value.state.state;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await importWhileReading();
  printFigures();
}
