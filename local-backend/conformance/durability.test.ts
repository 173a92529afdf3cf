/**
 * An acknowledged write is on disk: mutations answered before `kill -9` are all there after a restart
 * (the backend in its own process, killed outright while more mutations are in flight).
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  mutateThenKill,
  newHttpClient,
  q,
  removeDir,
  spawnFixtureBackend,
  tempDataDir,
  type SpawnedBackend,
} from "./test-helpers.ts";

describe("durability", () => {
  const dataDir = tempDataDir();
  let running: SpawnedBackend | null = null;
  afterAll(async () => {
    if (running) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    removeDir(dataDir);
  });

  it("keeps every acknowledged mutation across two kill -9 restarts", { timeout: 120_000 }, async () => {
    const acknowledged: string[] = [];
    for (const round of [1, 2]) {
      running = await spawnFixtureBackend(dataDir);
      acknowledged.push(
        ...(await mutateThenKill(running, {
          channel: "durable",
          label: `round${round}`,
          count: 150,
          killAfter: 100,
        })),
      );
      running = null;
    }
    running = await spawnFixtureBackend(dataDir);
    const kept = (await newHttpClient(running.url).query(q("messages:list"), { channel: "durable" })) as {
      body: string;
    }[];
    const bodies = new Set(kept.map((row) => row.body));
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    expect(acknowledged.filter((body) => !bodies.has(body))).toEqual([]);
    running.child.kill("SIGTERM");
    await running.exited;
    running = null;
  });
});
