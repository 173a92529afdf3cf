/**
 * Part of `npm run bench`: acknowledged writes survive `kill -9`. The standalone backend runs in its
 * own process on a throwaway store; 5 rounds each send mutations with several in flight and kill it
 * outright once 200 were answered; the last start counts how many answered ones are missing.
 * Budget (issue 15): 0 of 1,000 lost.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  mutateThenKill,
  newHttpClient,
  q,
  spawnFixtureBackend,
} from "../../local-backend/conformance/test-helpers";
import { ISSUE_15, recordFigure } from "./stats";

const ROUNDS = 5;
const ACKNOWLEDGED_PER_ROUND = 200;

export async function durability(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-durability-"));
  try {
    const acknowledged: string[] = [];
    const started = performance.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const backend = await spawnFixtureBackend(dataDir);
      acknowledged.push(
        ...(await mutateThenKill(backend, {
          channel: "durable",
          label: `round${round}`,
          count: ACKNOWLEDGED_PER_ROUND * 2,
          killAfter: ACKNOWLEDGED_PER_ROUND,
        })),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const backend = await spawnFixtureBackend(dataDir);
    try {
      const kept = (await newHttpClient(backend.url).query(q("messages:list"), { channel: "durable" })) as {
        body: string;
      }[];
      const bodies = new Set(kept.map((row) => row.body));
      const lost = acknowledged.filter((body) => !bodies.has(body)).length;
      console.log(
        "\nDurability: acknowledged mutations across kill -9 restarts (standalone backend, fixture functions)",
      );
      const verdict = recordFigure({
        group: ISSUE_15,
        figure: `acknowledged mutations lost across ${ROUNDS} kill -9 restarts`,
        measured: `${lost} of ${acknowledged.length}`,
        budget: "0 of 1,000",
        ok: lost === 0 && acknowledged.length >= ROUNDS * ACKNOWLEDGED_PER_ROUND,
      });
      console.log(
        `  ${ROUNDS} kills, ${acknowledged.length} acknowledged, ${lost} lost, ${kept.length - acknowledged.length} more kept (in flight at the kill) — ${verdict} (budget: 0 of 1,000 lost); ${(
          acknowledged.length / seconds
        ).toFixed(0)} acknowledged mutations/s with start-ups`,
      );
    } finally {
      backend.child.kill("SIGTERM");
      await backend.exited;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
