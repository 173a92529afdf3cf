/**
 * Issue 40, as an operator meets `npm start` (decision 093): the build installed with
 * `npm ci --omit=dev` in a folder of its own starts on plain `node`, without TypeScript, Vite or tsx;
 * and an upgrade (SIGTERM to the running build, a new build started on the same data and port) loses
 * no acknowledged mutation and leaves no subscribed client behind.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { WebSocket } from "ws";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { startAppProcess, type AppProcess } from "../../scripts/bench/app-process";
import { buildApp } from "../../scripts/build/build-app";
import { LATEST_BUILD_PATH, buildMetaPath, readBuildMeta } from "../../scripts/build/build-info";

const root = path.resolve(import.meta.dirname, "../..");
/** What a production install needs of the project besides dist/: the heap guard's sources (postinstall). */
const INSTALLED_FILES = [
  "package.json",
  "package-lock.json",
  "scripts/serve/built.mjs",
  "scripts/serve/start.mjs",
  "scripts/serve/restore.mjs",
  "local-backend/runtime/isolate/heap-guard/binding.gyp",
  "local-backend/runtime/isolate/heap-guard/build.mjs",
  "local-backend/runtime/isolate/heap-guard/heap_guard.cc",
];

let scratch: string;
let production: string;
const running: AppProcess[] = [];

beforeAll(async () => {
  await buildApp();
  scratch = mkdtempSync(path.join(tmpdir(), "livelocal-e2e-production-"));
  production = path.join(scratch, "app");
}, 300_000);
afterAll(async () => {
  await Promise.all(running.map((app) => app.stop()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Packages in a node_modules folder, as npm recorded what it installed there. */
function installedPackages(dir: string): number {
  const lock = JSON.parse(readFileSync(path.join(dir, "node_modules", ".package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages).filter((key) => key.startsWith("node_modules/")).length;
}

/** The same seeded data folder, copied for each start that is timed. */
function copyOf(dataDir: string, name: string): string {
  const copy = path.join(scratch, name);
  cpSync(dataDir, copy, { recursive: true });
  return copy;
}

async function started(app: Promise<AppProcess>): Promise<AppProcess> {
  const process = await app;
  running.push(process);
  return process;
}

async function stopped(app: AppProcess): Promise<void> {
  await app.stop();
  running.splice(running.indexOf(app), 1);
}

test("npm ci --omit=dev installs fewer packages, and npm start serves the build from them", async () => {
  mkdirSync(production, { recursive: true });
  for (const file of INSTALLED_FILES) {
    mkdirSync(path.dirname(path.join(production, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(production, file));
  }
  cpSync(path.join(root, "dist"), path.join(production, "dist"), { recursive: true });
  execFileSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: production,
    stdio: "ignore",
  });
  const [full, omitted] = [installedPackages(root), installedPackages(production)];
  expect(omitted).toBeLessThan(full);
  // (TypeScript itself is there: convex-helpers names it as a peer, and npm installs peers.)
  for (const tool of ["vite", "tsx", "vitest", "eslint"]) {
    expect(existsSync(path.join(production, "node_modules", tool))).toBe(false);
  }

  // Seeded once, then each start is timed on a copy of the same data: the build's, and today's from the
  // TypeScript source with tsx (which needs the full install).
  const seeded = path.join(scratch, "seeded");
  await stopped(await started(startAppProcess(seeded, { cwd: production })));
  const times = { built: [] as number[], tsx: [] as number[] };
  for (let run = 0; run < 2; run++) {
    const built = await started(startAppProcess(copyOf(seeded, `built-${run}`), { cwd: production }));
    times.built.push(built.startedInMs);
    const page = await fetch(`${built.url}/`);
    expect(page.status).toBe(200);
    const live = await new ConvexHttpClient(built.url).query(api.streams.listLiveNow, {});
    expect(live.length).toBeGreaterThan(0);
    await stopped(built);
    const source = await started(
      startAppProcess(copyOf(seeded, `tsx-${run}`), {
        command: ["--import", "tsx", "scripts/serve/server.ts"],
      }),
    );
    times.tsx.push(source.startedInMs);
    await stopped(source);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  console.log(
    `production install: ${omitted} packages (the full install: ${full}); start-up on the same data, ` +
      `built ${times.built.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")} against tsx ` +
      `${times.tsx.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")}: ` +
      `ratio ${(median(times.built) / median(times.tsx)).toFixed(2)}`,
  );
}, 900_000);

/** A signed-in viewer on the sync socket, and what its subscription to its saved shows has shown. */
async function viewer(url: string, email: string) {
  const response = await fetch(`${url}/local-auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sub: `local|${email}`, email, name: email.split("@")[0] }),
  });
  const { token } = (await response.json()) as { token: string };
  const client = new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    skipConvexDeploymentUrlCheck: true,
    logger: false,
  });
  client.setAuth(() => Promise.resolve(token));
  await client.mutation(api.users.ensureUser, {});
  const seen = { latest: new Set<string>(), updates: 0 };
  client.onUpdate(api.watchList.mySaved, {}, (saved) => {
    seen.latest = new Set(saved?.streamIds ?? []);
    seen.updates += 1;
  });
  return { client, token, seen, acknowledged: new Set<string>() };
}

async function until(what: string, probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("an upgrade: SIGTERM drains the running build, the next build starts on the same data, and subscribed clients lose nothing", async () => {
  // The next build: the production install's copy of dist/, given a new build id as a new build has.
  const nextId = "next-build";
  const nextDist = path.join(production, "dist");
  const meta = readBuildMeta(nextDist);
  writeFileSync(path.join(nextDist, buildMetaPath(nextId)), JSON.stringify({ ...meta, id: nextId }));
  writeFileSync(
    path.join(nextDist, LATEST_BUILD_PATH),
    JSON.stringify({ id: nextId, builtAt: meta.builtAt }),
  );

  const dataDir = path.join(scratch, "upgrade");
  const first = await started(startAppProcess(dataDir));
  const { url, port, sitePort } = first;
  const shows = [
    ...(await new ConvexHttpClient(url).query(api.streams.listLiveNow, {})),
    ...(await new ConvexHttpClient(url).query(api.streams.listStartingSoon, { since: Date.now() })),
  ].map((card) => card._id as string);
  expect(shows.length).toBeGreaterThanOrEqual(8);
  const viewers = await Promise.all([0, 1, 2, 3].map((n) => viewer(url, `upgrade-${n}@example.com`)));

  // Each viewer saves the shows one after another, as a person clicking would; the server is upgraded
  // while they do.
  const saving = viewers.map(async (person, n) => {
    for (const show of [...shows.slice(n), ...shows.slice(0, n)]) {
      await person.client.mutation(api.watchList.setStreamSaved, {
        streamId: show as Id<"streams">,
        saved: true,
      });
      person.acknowledged.add(show);
    }
  });
  await until("some saves acknowledged", () => viewers.every((person) => person.acknowledged.size >= 2));
  await stopped(first);
  expect(first.output()).toMatch(/Stopped in \d+ ms: every call finished and was answered/);
  const acknowledgedByTheFirst = viewers.reduce((sum, person) => sum + person.acknowledged.size, 0);

  const next = await started(startAppProcess(dataDir, { cwd: production, port, sitePort }));
  expect((await (await fetch(`${url}/${LATEST_BUILD_PATH}`)).json()) as { id: string }).toMatchObject({
    id: nextId,
  });
  await Promise.all(saving);

  let lost = 0;
  let missed = 0;
  for (const person of viewers) {
    expect(person.acknowledged.size).toBe(shows.length);
    // What each subscriber shows catches up with every save acknowledged to it.
    await until("each subscriber to show every acknowledged save", () =>
      [...person.acknowledged].every((show) => person.seen.latest.has(show)),
    ).catch(() => undefined);
    missed += [...person.acknowledged].filter((show) => !person.seen.latest.has(show)).length;
    // And what the next build reads from the data: every acknowledged save.
    const reader = new ConvexHttpClient(url);
    reader.setAuth(person.token);
    const saved = new Set((await reader.query(api.watchList.mySaved, {}))?.streamIds ?? []);
    lost += [...person.acknowledged].filter((show) => !saved.has(show as Id<"streams">)).length;
    await person.client.close();
  }
  console.log(
    `upgrade: ${viewers.length} subscribed viewers, ${acknowledgedByTheFirst} saves acknowledged by the ` +
      `first build and ${viewers.length * shows.length - acknowledgedByTheFirst} across and after the ` +
      `upgrade; ${lost} acknowledged saves lost, ${missed} updates missed`,
  );
  expect(lost).toBe(0);
  expect(missed).toBe(0);
  await stopped(next);
}, 600_000);
