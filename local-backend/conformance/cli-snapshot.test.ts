/**
 * `npx convex export` and `npx convex import` (the real CLI) against the embedded backend: the export
 * is a ZIP in Convex's snapshot format (ids in Convex's format, files included on request), and
 * importing it into another backend gives back the same documents, ids, creation times and files;
 * the import's mode (`--replace`, `--append`, `--table`) is honoured as on Convex.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeConvexId } from "../values/convex-ids.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  a,
  m,
  newHttpClient,
  q,
  removeDir,
  runConvexCli,
  startFixtureBackend,
  tempDataDir,
} from "./test-helpers.ts";

type Row = { _id: string; _creationTime: number } & Record<string, unknown>;

describe("npx convex export / import", { timeout: 180_000 }, () => {
  let source: RunningLocalBackend;
  let target: RunningLocalBackend;
  const dirs = [tempDataDir(), tempDataDir(), tempDataDir()];
  const [sourceDir, targetDir, workDir] = dirs;
  const zipPath = path.join(workDir, "snapshot.zip");
  let storageId = "";

  const rows = async (backend: RunningLocalBackend, table: string): Promise<Row[]> => {
    const result = await runConvexCli(backend, ["data", table, "--format", "jsonArray", "--limit", "100"]);
    expect(result.ok).toBe(true);
    return (JSON.parse(result.stdout) as Row[]).sort((x, y) => x._creationTime - y._creationTime);
  };

  beforeAll(async () => {
    [source, target] = await Promise.all([
      startFixtureBackend({ dataDir: sourceDir }),
      startFixtureBackend({ dataDir: targetDir, seed: false }),
    ]);
    const client = newHttpClient(source.url);
    storageId = (await client.action(a("files:store"), { text: "a stored file" })) as string;
    await client.mutation(m("messages:send"), { channel: "snap", body: "first" });
    // A document that refers to another (here: to the stored file), to follow through the export.
    await client.mutation(m("messages:send"), { channel: "snap", body: storageId });
  });
  afterAll(async () => {
    await Promise.all([source.stop(), target.stop()]);
    for (const dir of dirs) removeDir(dir);
  });

  it("exports a ZIP in Convex's snapshot format", async () => {
    const exported = await runConvexCli(source, ["export", "--path", zipPath, "--include-file-storage"]);
    expect(exported.ok).toBe(true);
    expect(exported.stderr).toMatch(/Downloaded snapshot export to .*snapshot\.zip/);
    const entries = unzipSync(readFileSync(zipPath));
    const text = (name: string) => new TextDecoder().decode(entries[name]);
    expect(Object.keys(entries)).toEqual(
      expect.arrayContaining([
        "README.md",
        "_tables/documents.jsonl",
        "messages/documents.jsonl",
        "messages/generated_schema.jsonl",
        "_storage/documents.jsonl",
      ]),
    );
    expect(text("_tables/documents.jsonl")).toBe(
      '{"name":"messages","id":10001}\n{"name":"ticks","id":10002}\n',
    );
    expect(text("messages/generated_schema.jsonl")).toBe('"uniform"\n');
    const messages = text("messages/documents.jsonl").trim().split("\n");
    expect(messages).toHaveLength(3); // the seeded one and two sent
    const [storageLine] = text("_storage/documents.jsonl").trim().split("\n");
    const file = JSON.parse(storageLine) as { _id: string; size: number; contentType: string };
    expect(file).toMatchObject({ size: 13, contentType: "text/plain" });
    // Ids in Convex's format, the file's under Convex's `_storage` table number; references too.
    expect(decodeConvexId(file._id)?.tableNumber).toBe(540);
    expect(text(`_storage/${file._id}.txt`)).toBe("a stored file");
    for (const line of messages) {
      const doc = JSON.parse(line) as { _id: string; _creationTime: number; body: string };
      expect(decodeConvexId(doc._id)?.tableNumber).toBe(10001);
      expect(line).toMatch(/"_creationTime":\d+\.\d+/); // a float64, as Convex writes it
    }
    expect(messages.some((line) => line.includes(`"body":"${file._id}"`))).toBe(true);
  });

  it("imports it into another backend with the same ids, times and files", async () => {
    const imported = await runConvexCli(target, ["import", zipPath]);
    expect(imported.ok).toBe(true);
    expect(imported.stderr).toContain("Added 3 documents.");
    expect(imported.stderr).toMatch(/messages \| 3 +\| 0 of 0 +\|/);

    expect(await rows(target, "messages")).toEqual(await rows(source, "messages"));
    const client = newHttpClient(target.url);
    expect(await client.action(a("files:read"), { id: storageId })).toBe("a stored file");
    expect(await client.query(q("files:metadata"), { id: storageId })).toEqual({
      size: 13,
      contentType: "text/plain",
    });
  });

  it("refuses to import over data unless told to replace or append", async () => {
    const refused = await runConvexCli(target, ["import", zipPath]);
    expect(refused.ok).toBe(false);
    expect(refused.stderr).toContain(
      "Table messages already exists. Please choose a new table name or use replace/append modes.",
    );

    await newHttpClient(target.url).mutation(m("messages:send"), { channel: "snap", body: "local only" });
    const replaced = await runConvexCli(target, ["import", "--replace", "--yes", zipPath]);
    expect(replaced.ok).toBe(true);
    expect(replaced.stderr).toMatch(/messages \| 3 +\| 4 of 4 +\|/);
    expect(await rows(target, "messages")).toEqual(await rows(source, "messages"));
    const client = newHttpClient(target.url);
    expect(await client.action(a("files:read"), { id: storageId })).toBe("a stored file");

    const jsonl = path.join(workDir, "more.jsonl");
    writeFileSync(
      jsonl,
      '{"channel":"bulk","author":"import","body":"one"}\n{"channel":"bulk","author":"import","body":"two"}\n',
    );
    const appended = await runConvexCli(target, ["import", "--append", "--table", "messages", jsonl]);
    expect(appended.ok).toBe(true);
    expect(appended.stderr).toContain('Added 2 documents to table "messages".');
    expect(await client.query(q("messages:count"), { channel: "bulk" })).toBe(2);

    // The schema holds for imported documents too.
    const bad = path.join(workDir, "bad.jsonl");
    writeFileSync(bad, '{"channel":"bulk","body":"no author"}\n');
    const rejected = await runConvexCli(target, ["import", "--append", "--table", "messages", bad]);
    expect(rejected.ok).toBe(false);
    expect(rejected.stderr).toContain("does not match the schema");
    expect(await client.query(q("messages:count"), { channel: "bulk" })).toBe(2);
    expect(existsSync(zipPath)).toBe(true);
  });
});
