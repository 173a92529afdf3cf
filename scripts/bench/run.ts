/**
 * `npm run bench`: the local backend's speed and size figures, each against its budget, ending with a
 * table of them all. First the app as `npm run dev` runs it (Vite with the local backend, seeded with
 * demo data, in a throwaway store); then a click in one browser to the change in another on the
 * production build (browser-propagation.ts, which builds first unless `--no-build`); then issue 15's
 * figures on the standalone backend, demo data against generated data (scale.ts, which also runs the
 * explore and watch-list read budgets); then durability across `kill -9` (durability.ts); then issue
 * 19's go-live fan-out to 1,000 followers (fanout.ts). Run with --expose-gc so memory is read after
 * collection.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import type { FunctionReference } from "convex/server";
import { createServer } from "vite";
import WebSocket from "ws";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { DEMO_USERS } from "../../convex/lib/data/demo";
import { calendarDay } from "../../convex/lib/exploreWhen";
import { demoSellerWithStream } from "../../tests/support/demo-seller";
import { browserPropagation } from "./browser-propagation";
import { durability } from "./durability";
import { importWhileReading } from "./import";
import { benchmarkFanOut } from "./fanout";
import { propagation } from "./propagation";
import { benchmarkScale } from "./scale";
import { ms, printFigures, recordFigure } from "./stats";

const SUBSCRIBERS = 50;
const CHANGES = 240;
const MEMORY_MUTATIONS = 10_000;
const RECONNECT_MUTATIONS = 300;
const root = path.resolve(import.meta.dirname, "../..");
const GROUP = "Earlier budgets (npm run dev: Vite with the local backend, demo data)";

type Identity = { sub: string; email: string; name: string };
type StreamRow = { _id: Id<"streams">; streamTitle: string; streamStatus: string; liveShopName: string };

let vite: Awaited<ReturnType<typeof createServer>>;
let currentOrigin = "";
const origin = () => currentOrigin;

/** The sockets of the reconnect test's client, which the benchmark cuts to force reconnects. */
const cuttableSockets: WebSocket[] = [];
class CuttableWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    cuttableSockets.push(this);
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-bench-"));
  process.env.LIVELOCAL_LOCAL_BACKEND_DATA_DIR = dataDir;
  vite = await createServer({
    configFile: path.join(root, "vite.config.ts"),
    root,
    logLevel: "warn",
    server: { port: 0 },
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  const origin = `http://localhost:${typeof address === "object" && address ? address.port : 0}`;
  currentOrigin = origin;
  const clients: ConvexClient[] = [];
  const newClient = (identity?: Identity, cuttable = false) => {
    const client = new ConvexClient(origin, {
      webSocketConstructor: (cuttable
        ? CuttableWebSocket
        : WebSocket) as unknown as typeof globalThis.WebSocket,
      // The reconnect test cuts its socket on purpose; the client's reconnect notices are expected.
      logger: !cuttable,
    });
    if (identity) client.setAuth(async () => await tokenFor(origin, identity));
    clients.push(client);
    return client;
  };
  try {
    await waitForBackend(origin);
    const live = demoSellerWithStream("LIVE");
    const seller = identityOf(live.user);
    const sellerClient = newClient(seller);
    const target = await findStream(sellerClient, live.streamTitle);
    console.log(`LiveLocal benchmark — ${origin}, demo data, node ${process.version}`);
    console.log(`Target: "${target.streamTitle}" (${live.shopName}), owned by ${seller.name}\n`);

    await documentsReadPerQuery(origin, seller, sellerClient, target);
    await anonymousPropagation(origin, sellerClient, target);
    await reconnects(newClient, seller, target);
    await memory(sellerClient, target);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await vite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await browserPropagation({ build: !process.argv.includes("--no-build") });
  await benchmarkScale();
  await durability();
  await importWhileReading();
  await benchmarkFanOut();
  printFigures();
}

async function waitForBackend(origin: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(`${origin}/local-backend/stats`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("The local backend did not start within 30 s.");
}

/** The identity a demo user signs in with. */
function identityOf(user: { clerkId: string; email: string; name: string }): Identity {
  return { sub: user.clerkId, email: user.email, name: user.name };
}

/** An HTTP client signed in as `identity`, or signed out. */
async function httpClientAs(origin: string, identity: Identity | null): Promise<ConvexHttpClient> {
  const http = new ConvexHttpClient(origin);
  if (identity) http.setAuth(await tokenFor(origin, identity));
  return http;
}

async function tokenFor(origin: string, identity: Identity): Promise<string> {
  const response = await fetch(`${origin}/local-auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(identity),
  });
  if (!response.ok) throw new Error(`Token refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function findStream(client: ConvexClient, title: string): Promise<StreamRow> {
  const shops = await client.query(api.streams.listMyStreams, {});
  const stream = shops.flatMap((shop) => shop.streams).find((candidate) => candidate.streamTitle === title);
  if (!stream) throw new Error(`Stream "${title}" not found in the seller's dashboard.`);
  return stream;
}

type FunctionStats = { kind: string; calls: number; docsRead: number; maxDocsRead: number };
async function backendStats(origin: string): Promise<Record<string, FunctionStats>> {
  const response = await fetch(`${origin}/local-backend/stats`);
  return ((await response.json()) as { functions: Record<string, FunctionStats> }).functions;
}

/** Every public query, found by loading the function modules, with the arguments the benchmark uses. */
const BENCH_ZONE = "America/New_York";
const EXPLORE_FIRST_PAGE = {
  filter: { categories: [], subcategories: [], states: [], msas: [] },
  paginationOpts: { numItems: 24, cursor: null },
};
function queryArgs(
  target: StreamRow & {
    liveShopId: Id<"liveShops">;
    slug: string;
    sellerId: Id<"users">;
    requestId: Id<"privacyRequests">;
  },
) {
  const args: Record<string, Record<string, unknown>> = {
    "explore:listExploreStreams": EXPLORE_FIRST_PAGE,
    "explore:listExploreShops": EXPLORE_FIRST_PAGE,
    "explore:countExploreStreams": { filter: EXPLORE_FIRST_PAGE.filter },
    "explore:countExploreShops": { filter: EXPLORE_FIRST_PAGE.filter },
    "explore:searchExploreStreams": { filter: { ...EXPLORE_FIRST_PAGE.filter, q: "denim" } },
    "explore:searchExploreShops": { filter: { ...EXPLORE_FIRST_PAGE.filter, q: "denim" } },
    "liveShops:getMyShop": { liveShopId: target.liveShopId },
    "liveShops:checkSlug": { slug: target.slug },
    "streams:getMyStream": { streamId: target._id },
    "liveShops:getPublicShop": { idOrSlug: target.slug },
    "streams:getPublicStream": { streamId: target._id },
    "streams:listStartingSoon": { since: Math.floor(Date.now() / 300_000) * 300_000 },
    "users:listUsers": { paginationOpts: { numItems: 25, cursor: null } },
    // The admin console, as its screens ask (a page of 25; the overview's clock rounded to the minute).
    "admin:getOverview": { now: Math.floor(Date.now() / 60_000) * 60_000 },
    "admin:listVerificationQueue": { paginationOpts: { numItems: 25, cursor: null } },
    "admin:listShops": { paginationOpts: { numItems: 25, cursor: null } },
    "admin:listStreams": { paginationOpts: { numItems: 25, cursor: null }, status: "LIVE" },
    "admin:listActivity": { paginationOpts: { numItems: 25, cursor: null } },
    // The role-change question about the seller: their shops (decision 025).
    "admin:listUserShops": { userId: target.sellerId },
    "privacy:listDecidedRequests": { paginationOpts: { numItems: 25, cursor: null } },
    // The admin console's searches, as an admin types them: a shop's name, a requester's email.
    "admin:searchShops": { text: "denim" },
    "privacy:searchRequests": { email: "maria" },
    "privacy:getCorrection": { requestId: target.requestId },
    // The seller's insights for the shop; the live map for today, as a browser in New York asks.
    "insights:forShop": { liveShopId: target.liveShopId },
    "liveMap:listAreas": { day: calendarDay(Date.now(), BENCH_ZONE), timeZone: BENCH_ZONE },
  };
  return (name: string) => args[name] ?? {};
}

async function publicQueries(): Promise<string[]> {
  const { readdirSync } = await import("node:fs");
  const names: string[] = [];
  for (const file of readdirSync(path.join(root, "convex"))) {
    if (!/^[a-zA-Z]+\.ts$/.test(file) || ["schema.ts", "functions.ts"].includes(file)) continue;
    const exports = (await vite.ssrLoadModule(path.join(root, "convex", file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      const fn = value as { isQuery?: boolean; isPublic?: boolean } | null;
      if (fn?.isQuery && fn.isPublic) names.push(`${file.replace(/\.ts$/, "")}:${name}`);
    }
  }
  return names.sort();
}

async function documentsReadPerQuery(
  origin: string,
  seller: Identity,
  sellerClient: ConvexClient,
  target: StreamRow,
) {
  const shops = await sellerClient.query(api.liveShops.listMyShops, {});
  const shop = shops.find((candidate) => candidate.liveShopName === target.liveShopName);
  if (!shop) throw new Error(`The seller has no shop named ${target.liveShopName}.`);
  const me = await sellerClient.query(api.users.viewer, {});
  if (!me) throw new Error("The seller has no user row.");
  const admin = DEMO_USERS.find((user) => user.role === "admin");
  const viewer = DEMO_USERS.find((user) => user.role === "viewer");
  if (!admin || !viewer) throw new Error("The demo data needs an admin and a viewer.");
  // The demo data has no privacy request: the viewer asks for a correction, for the admin to open.
  const asViewer = await httpClientAs(origin, identityOf(viewer));
  const requestId = await asViewer.mutation(api.privacy.requestPrivacy, {
    type: "correction",
    details: "My display name is misspelled.",
  });
  const argsFor = queryArgs({
    ...target,
    liveShopId: shop._id,
    slug: shop.slug,
    sellerId: me._id,
    requestId,
  });
  const callers: [string, Identity | null][] = [
    ["signed out", null],
    ["viewer", identityOf(viewer)],
    ["seller", seller],
    ["admin", identityOf(admin)],
  ];
  console.log("Documents read per public query, per call, on demo data:");
  for (const name of await publicQueries()) {
    const row: string[] = [];
    for (const [label, identity] of callers) {
      const http = await httpClientAs(origin, identity);
      const before = (await backendStats(origin))[name];
      const ref = name as unknown as FunctionReference<"query">;
      await http.query(ref, argsFor(name));
      const after = (await backendStats(origin))[name];
      row.push(`${label} ${(after?.docsRead ?? 0) - (before?.docsRead ?? 0)}`);
    }
    console.log(`  ${name.padEnd(28)} ${row.join(", ")}`);
  }
  console.log();
}

/** Mutation → update with 50 anonymous clients sharing one query (scripts/bench/propagation.ts). */
async function anonymousPropagation(origin: string, seller: ConvexClient, target: StreamRow) {
  const { one, every } = await propagation({
    url: origin,
    subscribers: SUBSCRIBERS,
    changes: CHANGES,
    signedIn: false,
    token: (identity) => tokenFor(origin, identity),
    seller,
    target,
  });
  console.log(`Propagation, mutation → update, ${SUBSCRIBERS} anonymous clients, ${CHANGES} changes:`);
  console.log(
    `  one observer: median ${ms(one.median)}, p95 ${ms(one.p95)}, max ${ms(one.max)} (n=${one.n})`,
  );
  console.log(
    `  all ${SUBSCRIBERS} clients: median ${ms(every.median)}, p95 ${ms(every.p95)}, max ${ms(every.max)} (n=${every.n})`,
  );
  const verdict = recordFigure({
    group: GROUP,
    figure: `mutation → update, ${SUBSCRIBERS} anonymous clients, one observer`,
    measured: `median ${ms(one.median, 10)}, p95 ${ms(one.p95, 50)}`,
    budget: "median ≤ 10 ms, p95 ≤ 50 ms",
    ok: one.median <= 10 && one.p95 <= 50,
  });
  console.log(`  budget (one observer) median ≤ 10 ms, p95 ≤ 50 ms: ${verdict}\n`);
}

async function reconnects(
  newClient: (identity?: Identity, cuttable?: boolean) => ConvexClient,
  seller: Identity,
  target: StreamRow,
) {
  const client = newClient(seller, true);
  await client.query(api.users.viewer, {});
  const before = (await backendStats(origin()))["streams:setStreamStatus"]?.calls ?? 0;
  let status = target.streamStatus === "LIVE" ? "LIVE" : "PAUSED";
  const results: PromiseSettledResult<unknown>[] = [];
  let cuts = 0;
  // Batches of 25: half sent, the socket cut with them in flight, the rest queued behind the reconnect.
  for (let batchStart = 0; batchStart < RECONNECT_MUTATIONS; batchStart += 25) {
    const batch: Promise<unknown>[] = [];
    for (let index = batchStart; index < Math.min(batchStart + 25, RECONNECT_MUTATIONS); index++) {
      status = status === "LIVE" ? "PAUSED" : "LIVE";
      batch.push(
        client.mutation(api.streams.setStreamStatus, { streamId: target._id, status: status as "LIVE" }),
      );
      if (index - batchStart === 12) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        for (const socket of cuttableSockets) {
          if (socket.readyState !== WebSocket.OPEN) continue;
          socket.terminate();
          cuts++;
        }
      }
    }
    results.push(...(await Promise.allSettled(batch)));
  }
  const failed = results.filter((result) => result.status === "rejected").length;
  const runs = ((await backendStats(origin()))["streams:setStreamStatus"]?.calls ?? 0) - before;
  console.log(`Forced reconnects: ${RECONNECT_MUTATIONS} mutations, ${cuts} forced disconnects:`);
  console.log(
    `  resolved ${RECONNECT_MUTATIONS - failed}, lost ${failed}, server runs ${runs} (duplicated ${runs - RECONNECT_MUTATIONS})`,
  );
  const verdict = recordFigure({
    group: GROUP,
    figure: `forced reconnects, ${RECONNECT_MUTATIONS} mutations, ${cuts} disconnects`,
    measured: `${failed} lost, ${runs - RECONNECT_MUTATIONS} duplicated`,
    budget: "0 lost, 0 duplicated",
    ok: failed === 0 && runs === RECONNECT_MUTATIONS,
  });
  console.log(`  budget 0 lost, 0 duplicated: ${verdict}\n`);
}

async function memory(seller: ConvexClient, target: StreamRow) {
  const gc = (globalThis as { gc?: () => void }).gc;
  let status = (await findStream(seller, target.streamTitle)).streamStatus;
  const toggle = async () => {
    status = status === "LIVE" ? "PAUSED" : "LIVE";
    await seller.mutation(api.streams.setStreamStatus, { streamId: target._id, status: status as "LIVE" });
  };
  // Warm up first, so caches and JIT code built on first use are not counted as growth.
  for (let index = 0; index < 500; index++) await toggle();
  gc?.();
  gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  for (let index = 0; index < MEMORY_MUTATIONS; index++) await toggle();
  const seconds = (performance.now() - started) / 1000;
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  gc?.();
  const after = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  const growth = (after.rss - before.rss) / 1048576;
  console.log(
    `Memory, ${MEMORY_MUTATIONS} mutations (${(MEMORY_MUTATIONS / seconds).toFixed(0)}/s${gc ? "" : ", no --expose-gc"}):`,
  );
  console.log(
    `  resident ${mb(before.rss)} MB → ${mb(after.rss)} MB, growth ${growth.toFixed(1)} MB; JS heap ${mb(before.heapUsed)} MB → ${mb(after.heapUsed)} MB`,
  );
  console.log("  (the data itself does not grow: each mutation patches the same stream)");
  const verdict = recordFigure({
    group: GROUP,
    figure: `resident memory growth over ${MEMORY_MUTATIONS} mutations (dev server process)`,
    measured: `${growth.toFixed(1)} MB`,
    budget: "< 50 MB",
    ok: growth < 50,
  });
  console.log(`  budget growth < 50 MB: ${verdict}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    printFigures();
    console.error(error);
    process.exit(1);
  },
);
