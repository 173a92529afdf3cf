/**
 * The Convex CLI's writes go through the database layer as a mutation's do (decision 083): an import's
 * documents pass the checks a mutation's writes pass (the schema, Convex's document limits) and one
 * that fails any of them writes nothing and says why in the mutation's words; an import and an
 * environment variable change are commits like a mutation's, so a subscribed client sees them.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  m,
  newClient,
  newHttpClient,
  q,
  removeDir,
  runConvexCli,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";

describe("the CLI's writes", { timeout: 120_000 }, () => {
  let backend: RunningLocalBackend;
  let client: ConvexClient;
  const workDir = tempDataDir();

  const importLines = async (table: string, name: string, lines: string[], mode = "--append") => {
    const file = path.join(workDir, name);
    writeFileSync(file, `${lines.join("\n")}\n`);
    return await runConvexCli(backend, ["import", mode, "--yes", "--table", table, file]);
  };

  beforeAll(async () => {
    backend = await startFixtureBackend();
    client = newClient(backend.url);
  });
  afterAll(async () => {
    await client.close();
    await backend.stop();
    removeDir(workDir);
  });

  it("an import reaches a subscribed client", async () => {
    const count = watch<number>(client, q("messages:count"), { channel: "imported" });
    await count.next((n) => n === 0);
    const row = (body: string) => JSON.stringify({ channel: "imported", author: "cli", body });
    const imported = await importLines("messages", "three.jsonl", [row("a"), row("b"), row("c")]);
    expect(imported.stderr).toContain('Added 3 documents to table "messages".');
    expect(imported.ok).toBe(true);
    await count.next((n) => n === 3);
    count.stop();
  });

  it("an environment variable change reaches a subscribed client", async () => {
    const admin = newClient(backend.url);
    // What the CLI's own client does (`setAdminAuth` is internal to `convex`, left out of its types).
    (admin.client as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
    try {
      const name = "LIVELOCAL_CLI_WRITES_TEST";
      const variable = watch<{ name: string; value: string } | null>(
        admin,
        q("_system/cli/queryEnvironmentVariables:get"),
        { name },
      );
      await variable.next((v) => v === null);
      expect((await runConvexCli(backend, ["env", "set", name, "first"])).ok).toBe(true);
      await variable.next((v) => v?.value === "first");
      expect((await runConvexCli(backend, ["env", "remove", name])).ok).toBe(true);
      await variable.next((v) => v === null && variable.values.length > 2);
      variable.stop();
    } finally {
      await admin.close();
    }
  });

  it("an import refused by the schema writes nothing and says why as a mutation would", async () => {
    const http = newHttpClient(backend.url);
    const before = await http.query(q("messages:count"), { channel: "refused" });
    // 300 good rows, then one without `author`: the refusal comes after a first part was written.
    const good = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ channel: "refused", author: "cli", body: `${i}` }),
    );
    const refused = await importLines("messages", "schema.jsonl", [
      ...good,
      JSON.stringify({ channel: "refused", body: "no author" }),
    ]);
    expect(refused.ok).toBe(false);
    // The same refusal of a mutation's insert into the same table: `{ list: [] }` is not a message.
    const mutation = await http
      .mutation(m("limits:insertValue"), { table: "messages", kind: "array", n: 0 })
      .then(
        () => "",
        (e: Error) => e.message,
      );
    const because =
      /(Failed to insert or update a document in table "messages" because it does not match the schema: )/.exec(
        mutation,
      )?.[1];
    expect(because).toBeDefined();
    expect(refused.stderr).toContain(`${because}`);
    expect(refused.stderr).toContain("author");
    expect(await http.query(q("messages:count"), { channel: "refused" })).toBe(before);
  });

  it("an import refused by a limit writes nothing and says why as a mutation would", async () => {
    const http = newHttpClient(backend.url);
    const mutation = await http
      .mutation(m("limits:insertValue"), { table: "importNesting", kind: "nested", n: 16 })
      .then(
        () => "",
        (e: Error) => e.message,
      );
    const because = /isn't a valid document: (Document is too nested .*)/.exec(mutation)?.[1];
    expect(because).toBe("Document is too nested (nested 17 levels deep > maximum nesting 16)");

    let nested = "1";
    for (let i = 0; i < 16; i += 1) nested = `[${nested}]`;
    const refused = await importLines("importNesting", "nested.jsonl", [
      JSON.stringify({ a: 1 }),
      `{"a":${nested}}`,
    ]);
    expect(refused.ok).toBe(false);
    expect(refused.stderr).toContain(because);
    expect(await http.query(q("limits:count"), { table: "importNesting" })).toBe(0);

    // A document over 1 MiB: Convex's size limit, in its words.
    const big = JSON.stringify({ s: "a".repeat(1 << 20) });
    const tooLarge = await importLines("importSize", "large.jsonl", [big]);
    expect(tooLarge.ok).toBe(false);
    expect(tooLarge.stderr).toMatch(/Value is too large \([0-9.]+ MiB > maximum size 1 MiB\)/);
    expect(await http.query(q("limits:count"), { table: "importSize" })).toBe(0);
  });
});
