/**
 * `npm run bench:backup`: what an online backup (decision 096) costs a large store's writers. A
 * fixture backend in this process holds 200,000 imported documents and 200 stored files of 100 KB; a
 * client writes one mutation after another, idle and then while a backup is taken; each mutation's
 * time and the backend's event-loop delay are recorded. Then the backup is restored into a new folder.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  a,
  m,
  newHttpClient,
  startFixtureBackend,
  uploadImport,
} from "../../local-backend/conformance/test-helpers";
import { writeBackup } from "../../local-backend/storage/backup";
import { restoreBackup } from "../../local-backend/storage/restore";
import { importStateOf } from "./import";
import { ms, summarize } from "./stats";

const ROWS = 200_000;
const FILES = 200;
const FILE_BYTES = 100_000;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export async function backupWhileWriting(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), "livelocal-backup-bench-"));
  const dataDir = path.join(scratch, "data");
  const backend = await startFixtureBackend({ dataDir });
  try {
    const post = async (route: string, body: string): Promise<unknown> => {
      const response = await fetch(`${backend.url}${route}`, {
        method: "POST",
        headers: { Authorization: `Convex ${backend.adminKey}` },
        body,
      });
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      const text = await response.text();
      return text === "" ? null : JSON.parse(text);
    };
    const rows = Array.from({ length: ROWS }, (_, i) =>
      JSON.stringify({ channel: "imported", author: "import", body: `row ${i} `.repeat(8) }),
    );
    const importId = await uploadImport(post, rows);
    while ((await importStateOf(backend.url, backend.adminKey, importId)) !== "waiting_for_confirmation") {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await post("/api/perform_import", JSON.stringify({ importId }));
    const client = newHttpClient(backend.url);
    for (let i = 0; i < FILES; i += 1) {
      await client.action(a("files:store"), { text: `${i} ${"x".repeat(FILE_BYTES)}`.slice(0, FILE_BYTES) });
    }
    const databaseBytes = statSync(path.join(dataDir, "data.sqlite3")).size;

    const write = async (i: number): Promise<number> => {
      const started = performance.now();
      await client.mutation(m("messages:send"), { channel: "writer", body: `w${i}` });
      return performance.now() - started;
    };
    for (let i = 0; i < 50; i += 1) await write(i);
    const idle: number[] = [];
    const idleDelay = monitorEventLoopDelay({ resolution: 1 });
    idleDelay.enable();
    for (let i = 0; i < 300; i += 1) idle.push(await write(i));
    idleDelay.disable();

    const during: number[] = [];
    let done = false;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    // Where in the backup the event loop waited longest (a gap between ticks of a 5 ms timer).
    const began = performance.now();
    let snapshotAt = 0;
    let tick = began;
    let longest = { gap: 0, at: 0 };
    const ticker = setInterval(() => {
      const now = performance.now();
      if (now - tick > longest.gap) longest = { gap: now - tick, at: now - began };
      tick = now;
    }, 5);
    const backedUp = writeBackup(backend.core.store, path.join(scratch, "backup.tar.gz"), {
      afterSnapshot: () => {
        snapshotAt = performance.now() - began;
        return Promise.resolve();
      },
    }).finally(() => {
      done = true;
    });
    for (let i = 0; !done; i += 1) during.push(await write(i));
    const result = await backedUp;
    delay.disable();
    clearInterval(ticker);

    const restoreStarted = performance.now();
    await restoreBackup(result.file, path.join(scratch, "restored"));
    const restoreMs = performance.now() - restoreStarted;

    const calm = summarize(idle);
    const busy = summarize(during);
    console.log(
      `\nBackup: ${ROWS.toLocaleString("en-US")} documents and ${FILES} files of ${FILE_BYTES / 1000} KB`,
    );
    console.log(
      `  database ${mib(databaseBytes)}; backup ${mib(result.bytes)} in ${(result.ms / 1000).toFixed(1)} s; restored in ${(restoreMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  a writer's mutations idle: ${calm.n}, median ${ms(calm.median)}, p95 ${ms(calm.p95)}, max ${ms(calm.max)}`,
    );
    console.log(
      `  during the backup: ${busy.n}, median ${ms(busy.median)}, p95 ${ms(busy.p95)}, max ${ms(busy.max)} (the longest pause a writer saw)`,
    );
    console.log(
      `  the backend's event loop: longest delay ${ms(idleDelay.max / 1e6)} idle, ${ms(delay.max / 1e6)} during the backup (its longest gap ${ms(longest.gap)} at ${(longest.at / 1000).toFixed(1)} s; the snapshot was taken in the first ${(snapshotAt / 1000).toFixed(1)} s)`,
    );
  } finally {
    await backend.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await backupWhileWriting();
}
