/**
 * Decision 096 end to end: `npm start -- --backup-dir … --backup-every 1s` takes backups while people
 * use the app; one taken after a person's writes (their account and an uploaded profile picture) and
 * before another person's is restored with `npm run backup:restore` into a new folder, and a second
 * server on it shows clients what the first showed then: the first person's profile and picture (to
 * the token they already had), and no second person.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { backupTime } from "../../local-backend/host/backup-schedule";
import { startAppProcess, type AppProcess } from "../../scripts/bench/app-process";
import { buildApp } from "../../scripts/build/build-app";

const root = path.resolve(import.meta.dirname, "../..");
let scratch: string;
const running: AppProcess[] = [];

beforeAll(async () => {
  await buildApp();
  scratch = mkdtempSync(path.join(tmpdir(), "livelocal-e2e-backup-"));
});
afterAll(async () => {
  for (const app of running) await app.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A development token for `email` and a client signed in with it, their user row made. */
async function signIn(url: string, email: string): Promise<{ token: string; client: ConvexHttpClient }> {
  const response = await fetch(`${url}/local-auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sub: `local|${email}`, email, name: email.split("@")[0] }),
  });
  const { token } = (await response.json()) as { token: string };
  const client = new ConvexHttpClient(url);
  client.setAuth(token);
  await client.mutation(api.users.ensureUser, {});
  return { token, client };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

test("a scheduled backup restores into a folder a second server serves as the first did then", async () => {
  const dataDir = path.join(scratch, "data");
  const backupDir = path.join(scratch, "backups");
  mkdirSync(backupDir);
  const first = await startAppProcess(dataDir, {
    extraArgs: ["--backup-dir", backupDir, "--backup-every", "1s", "--backup-keep", "3"],
  });
  running.push(first);

  // Ana signs up and uploads a profile picture.
  const ana = await signIn(first.url, "ana.backup@example.com");
  const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c0392b" } })
    .png()
    .toBuffer();
  const upload = await fetch(`${first.url}/local-backend/site/images/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ana.token}`, "Content-Type": "image/png" },
    body: new Uint8Array(picture),
  });
  expect(upload.status).toBe(200);
  const { storageId } = (await upload.json()) as { storageId: Id<"_storage"> };
  const claimed = await ana.client.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } });
  if (!claimed.ok) throw new Error(claimed.message);
  await ana.client.mutation(api.settings.setAvatar, { avatar: claimed.url });
  const anaThen = await ana.client.query(api.users.viewer, {});
  const written = Date.now();

  // The first backup begun after her writes, copied away before the schedule's retention removes it.
  const name = await until("a backup begun after Ana's writes", () =>
    readdirSync(backupDir).find((candidate) => (backupTime(candidate) ?? 0) > written),
  );
  const kept = path.join(scratch, name);
  copyFileSync(path.join(backupDir, name), kept);

  // Ben signs up after it; then the first server stops.
  const ben = await signIn(first.url, "ben.backup@example.com");
  expect(await ben.client.query(api.users.viewer, {})).not.toBeNull();
  const backups = () => readdirSync(backupDir).filter((candidate) => backupTime(candidate) !== null);
  await until("backups kept at three", () => (backups().length === 3 ? true : undefined));
  await first.stop();

  const restoredDir = path.join(scratch, "restored");
  const restore = await run(["scripts/serve/restore.mjs", kept, "--data-dir", restoredDir]);
  expect(restore.output).toContain(`into ${restoredDir}`);
  expect(restore.code).toBe(0);
  // Restoring again over the folder now in use is refused, and changes nothing.
  const again = await run(["scripts/serve/restore.mjs", kept, "--data-dir", restoredDir]);
  expect(again.code).toBe(1);
  expect(again.output).toContain("already exists and is not an empty folder");

  const second = await startAppProcess(restoredDir);
  running.push(second);
  // Ana's token from the first server still signs her in (the key pair was restored), as she was.
  const anaNow = new ConvexHttpClient(second.url);
  anaNow.setAuth(ana.token);
  expect(await anaNow.query(api.users.viewer, {})).toEqual(anaThen);
  const address = new URL(claimed.url, first.url);
  const served = await fetch(new URL(`${address.pathname}${address.search}`, second.url));
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer())).toEqual(picture);
  // Ben signed up after the backup: his token is good, his account is not there.
  const benNow = new ConvexHttpClient(second.url);
  benNow.setAuth(ben.token);
  expect(await benNow.query(api.users.viewer, {})).toBeNull();
  await second.stop();
}, 300_000);
