/**
 * Issue 15's figures, measured as ratios in one run. The standalone backend (`tsx local-backend/host/server.ts`,
 * without crons) runs as its own process. One data folder is seeded with the demo data, then filled
 * with generated streams (`benchData:generateStreams`, run with the admin key in batches), and copied
 * on the way: the demo data; plus 200 streams and a full watch list; plus 10,000; plus 50,000.
 * Figures compare two folders served at the same time, their measurements interleaved (a call on
 * one, then the same call on the other), so that other work on the machine weighs on both alike.
 *
 * - Reads: the explore first page (`explore:listExploreStreams`, the app's page of 24, no filter),
 *   demo → 50,000 streams; `streams:listLiveNow` with its board full (48 cards) on both sides: the
 *   demo data plus live shows until the board is full (some go to shops the public does not see) →
 *   50,000 streams (the demo data alone fills 5 cards, and 50,000 streams fill all 48: a read's time
 *   follows its result, so the budget compares equal results; the demo → 50,000 ratio is printed
 *   beside it); `watchList:myWatchList` at its limits → 10,000
 *   streams. A call's time is the backend's (the growth of the function's `totalMs` in
 *   `/local-backend/stats`), median of one-at-a-time calls; the client's round trip is printed beside
 *   it. A full watch list needs 100 public shows and the demo data has 18, so its small-table figure is
 *   taken on the demo data plus the first 200 generated streams (the same saved shows and followed
 *   shops are read with 10,000).
 * - Mutation → update (scripts/bench/propagation.ts) with 50 anonymous clients on the demo data, on
 *   the demo data with a full board and on 10,000 streams, in alternating rounds after three
 *   unmeasured ones on each (decision 051); 200 clients each signed in as a different person on the
 *   demo data. Each client is sent the whole board after each change and, all 50 being in this
 *   process, parses it after the ones before it: the time grows with the board (5 cards on the demo
 *   data, 48 with 10,000 streams) whatever the backend does. So, as for the board's read, the
 *   10,000-stream budget compares equal boards (decision 043); the demo → 10,000 ratio is printed
 *   beside it. One `streams:setStreamStatus` by its owner (backend time, commit included), demo →
 *   50,000 streams.
 *   The stream changed is the first card of the live board.
 * - Start-up (spawn to first answered query) and resident memory (VmRSS of the process, ready and
 *   idle a second), medians of 3 starts each, demo → 50,000 streams.
 * - explore.ts's documents-read budgets (issue 5) and the watch list's (issue 8), on the same folders.
 *
 * Alone: `node --import tsx scripts/bench/scale.ts`; `BENCH_MID=2000 BENCH_BIG=4000` for a quick try
 * with fewer streams, `BENCH_CPU_PROF=<dir>` to have each backend process write a CPU profile there.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { DEMO_SHOPS, DEMO_USERS } from "../../convex/lib/data/demo";
import { BackendProcess, type Identity } from "./backend-process";
import { exploreAtScale, exploreDemoCases } from "./explore";
import { liveMapReads } from "./live-map";
import { printLimitUse } from "./limits";
import { newClient, propagation, type PropagationResult } from "./propagation";
import { ISSUE_15, ms, printFigures, ratio, recordFigure, recordMsFigure, summarize } from "./stats";
import { fillWatchList, watchListReadBudget, watchListReader, type WatchListFill } from "./watch-list";
import { insightsBurst } from "./insights";

const GROUP = ISSUE_15;
const EARLIER = "Earlier budgets (issues 5, 8: documents read)";
/** Generated streams a full watch list needs on top of the demo data's 18 public ones. */
const SMALL = 200;
const MID = Number(process.env.BENCH_MID ?? 10_000);
const BIG = Number(process.env.BENCH_BIG ?? 50_000);
/** Streams per generating mutation: few enough that each stays within Convex's 1 s of code. */
const BATCH = 100;
/** Shops re-derived per mutation after generating (benchData:syncShops). */
const SHOP_BATCH = 5;
const STARTS = 3;
const WARM_UP = 3;
const READ_RUNS = 60;
const MUTATION_RUNS = 30;
const SUBSCRIBERS = 50;
/** Changes per round; two rounds on each folder, alternating. */
const CHANGES = 100;
/**
 * Unmeasured rounds on each folder first: a backend's first few hundred changes, and this process's
 * clients', run code V8 has not finished optimizing (decision 051).
 */
const PROPAGATION_WARM_UP_ROUNDS = 3;
const SIGNED_IN_SUBSCRIBERS = 200;
/**
 * Each change gives 200 samples, so the p95 is about the (changes / 20)th slowest change: with 30 it
 * was the second slowest, and one stall of the machine set it (decision 051).
 */
const SIGNED_IN_CHANGES = 100;

const EXPLORE_FIRST_PAGE = {
  filter: { categories: [], subcategories: [], states: [], msas: [] },
  paginationOpts: { numItems: 24, cursor: null },
};

type Summary = ReturnType<typeof summarize>;
type Timed = { backend: Summary; client: Summary; docsRead: number };

/** The live board as anyone sees it (`streams:listLiveNow`). */
const liveBoard = (backend: BackendProcess) =>
  new ConvexHttpClient(backend.url).query(api.streams.listLiveNow, {});
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`;

// -- Data folders ------------------------------------------------------------------------------

async function generate(backend: BackendProcess, from: number, to: number): Promise<void> {
  const started = performance.now();
  let listed = 0;
  for (let offset = from; offset < to; offset += BATCH) {
    const count = Math.min(BATCH, to - offset);
    const outcome = (await backend.runMutation("benchData:generateStreams", {
      count,
      offset,
      seed: 42,
    })) as { listed: number };
    listed += outcome.listed;
  }
  await syncShops(backend);
  console.log(
    `  generated streams ${from + 1}–${to} in ${seconds(performance.now() - started)} (${listed} publicly listed)`,
  );
}

/** Every shop's rows re-derived (their live badges), a few shops per mutation. */
async function syncShops(backend: BackendProcess): Promise<void> {
  for (let offset = 0; ; offset += SHOP_BATCH) {
    const synced = (await backend.runMutation("benchData:syncShops", {
      offset,
      count: SHOP_BATCH,
    })) as number;
    if (synced < SHOP_BATCH) return;
  }
}

type Folders = {
  demo: string;
  /** The demo data plus `boardLive` live shows: a full live board. */
  board: string;
  boardLive: number;
  small: string;
  mid: string;
  big: string;
  fill: WatchListFill;
};

/** The live board's size (convex/streams.ts LIVE_NOW_LIMIT). */
const LIVE_BOARD = 48;

/** Seeds one folder, fills it step by step, and copies it (stopped) after each step. */
async function buildFolders(root: string): Promise<Folders> {
  const work = path.join(root, "work");
  const copy = (name: string) => {
    const target = path.join(root, name);
    cpSync(work, target, { recursive: true });
    return target;
  };
  const started = performance.now();
  console.log(`Data folders in ${root}:`);
  // A new folder: the first start seeds the demo data.
  await (await BackendProcess.start(work)).stop();
  const demo = copy("demo");
  const board = copy("board");
  let backend = await BackendProcess.start(board);
  // Live shows until the board is full: some go to shops the public does not see.
  let boardLive = 0;
  const boardCards = async () => (await liveBoard(backend)).length;
  while ((await boardCards()) < LIVE_BOARD) {
    if (boardLive >= 10 * LIVE_BOARD) throw new Error("The live board does not fill up.");
    await backend.runMutation("benchData:generateStreams", {
      count: 8,
      offset: boardLive,
      seed: 7,
      status: "LIVE",
    });
    await syncShops(backend);
    boardLive += 8;
  }
  await backend.stop();
  backend = await BackendProcess.start(work);
  await generate(backend, 0, SMALL);
  const fill = await fillWatchList(backend);
  await backend.stop();
  const small = copy(`plus-${SMALL}`);
  backend = await BackendProcess.start(work);
  await generate(backend, SMALL, MID);
  await backend.stop();
  const mid = copy(`plus-${MID}`);
  backend = await BackendProcess.start(work);
  await generate(backend, MID, BIG);
  await backend.stop();
  console.log(`  (${seconds(performance.now() - started)} in all)\n`);
  return { demo, board, boardLive, small, mid, big: work, fill };
}

// -- Measuring ---------------------------------------------------------------------------------

/**
 * Starts each folder's backend in turn, `STARTS` rounds (all but the last stopped again); returns the
 * running backends and the median start-up and resident memory of each.
 */
async function startUps(folders: string[]) {
  const samples = folders.map(() => ({ startupMs: [] as number[], rss: [] as number[] }));
  const running: BackendProcess[] = [];
  for (let round = 0; round < STARTS; round++) {
    for (const [index, folder] of folders.entries()) {
      const backend = await BackendProcess.start(folder);
      // Ready and idle: its first query answered, nothing asked for a second.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      samples[index].startupMs.push(backend.startupMs);
      samples[index].rss.push(backend.rss());
      if (round === STARTS - 1) running.push(backend);
      else await backend.stop();
    }
  }
  return samples.map((sample, index) => ({
    backend: running[index],
    startupMs: summarize(sample.startupMs).median,
    rss: summarize(sample.rss).median,
    all: `start-up ${sample.startupMs.map(seconds).join(", ")}; resident ${sample.rss.map(mb).join(", ")}`,
  }));
}

/** The same call on each backend in turn, `runs` times after a few unmeasured ones. */
async function alternate(
  udfPath: string,
  runs: number,
  sides: { backend: BackendProcess; call: () => Promise<unknown> }[],
): Promise<Timed[]> {
  for (let warmUp = 0; warmUp < WARM_UP; warmUp++) for (const side of sides) await side.call();
  const samples = sides.map(() => ({ backendMs: [] as number[], clientMs: [] as number[], docsRead: 0 }));
  for (let run = 0; run < runs; run++) {
    for (const [index, side] of sides.entries()) {
      const sample = await side.backend.sample(udfPath, side.call);
      samples[index].backendMs.push(sample.backendMs);
      samples[index].clientMs.push(sample.clientMs);
      samples[index].docsRead = sample.docsRead;
    }
  }
  return samples.map((sample) => ({
    backend: summarize(sample.backendMs),
    client: summarize(sample.clientMs),
    docsRead: sample.docsRead,
  }));
}

/** The first LIVE card of the live board and its shop's owner (a demo seller: generated streams use demo shops). */
async function liveTarget(backend: BackendProcess) {
  const cards = await liveBoard(backend);
  const card = cards.find((candidate) => candidate.streamStatus === "LIVE");
  const shop = DEMO_SHOPS.find((candidate) => candidate.slug === card?.liveShopSlug);
  const user = DEMO_USERS.find((candidate) => candidate.key === shop?.ownerKey);
  if (!card || !user) throw new Error("The live board has no LIVE stream of a demo shop.");
  const seller: Identity = { sub: user.clerkId, email: user.email, name: user.name };
  return {
    target: { _id: card._id, streamStatus: "LIVE" },
    seller,
    title: card.streamTitle,
  };
}

/** A LIVE ⇄ PAUSED toggle of the live board's first stream by its owner over HTTP, and a way back to LIVE. */
async function statusToggle(backend: BackendProcess) {
  const { target, seller, title } = await liveTarget(backend);
  const http = new ConvexHttpClient(backend.url);
  http.setAuth(await backend.token(seller));
  let status: "LIVE" | "PAUSED" = "LIVE";
  const call = async () => {
    status = status === "LIVE" ? "PAUSED" : "LIVE";
    await http.mutation(api.streams.setStreamStatus, { streamId: target._id, status });
  };
  return { backend, call, title, restore: async () => (status === "LIVE" ? undefined : await call()) };
}

async function propagate(
  backend: BackendProcess,
  subscribers: number,
  changes: number,
  signedIn: boolean,
): Promise<PropagationResult> {
  const { target, seller } = await liveTarget(backend);
  const sellerToken = await backend.token(seller);
  const sellerClient = newClient(backend.url, () => Promise.resolve(sellerToken));
  try {
    return await propagation({
      url: backend.url,
      subscribers,
      changes,
      signedIn,
      token: (identity) => backend.token(identity),
      seller: sellerClient,
      target,
    });
  } finally {
    await sellerClient.close();
  }
}

/**
 * Rounds on each backend in turn, after `PROPAGATION_WARM_UP_ROUNDS` unmeasured ones on each (as the
 * reads have WARM_UP: a backend that has served a while has its code compiled, and so has this
 * process's clients); each backend's samples pooled.
 */
async function alternatePropagation(backends: BackendProcess[], rounds: number) {
  for (let round = 0; round < PROPAGATION_WARM_UP_ROUNDS; round++) {
    for (const backend of backends) await propagate(backend, SUBSCRIBERS, CHANGES, false);
  }
  const pooled = backends.map(() => ({ every: [] as PropagationResult[] }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, backend] of backends.entries()) {
      pooled[index].every.push(await propagate(backend, SUBSCRIBERS, CHANGES, false));
    }
  }
  return pooled.map(({ every }) => ({
    every: summarize(every.flatMap((result) => result.samples.every)),
    one: summarize(every.flatMap((result) => result.samples.one)),
  }));
}

// -- Printing ----------------------------------------------------------------------------------

function describeTimed(timed: Timed): string {
  return (
    `backend median ${ms(timed.backend.median)}, p95 ${ms(timed.backend.p95)}` +
    ` (client round trip median ${ms(timed.client.median)}), ${timed.docsRead} documents read` +
    ` (${ms(timed.backend.median / Math.max(1, timed.docsRead))} per document)`
  );
}

function printPair(label: string, small: string, big: string, [a, b]: Timed[]): void {
  console.log(`  ${label}:`);
  console.log(`    ${small.padEnd(22)} ${describeTimed(a)}`);
  console.log(`    ${big.padEnd(22)} ${describeTimed(b)}`);
}

function describePropagation(result: { every: Summary; one: Summary }): string {
  return (
    `every client: median ${ms(result.every.median)}, p95 ${ms(result.every.p95)}, max ${ms(result.every.max)} (n=${result.every.n});` +
    ` one observer: median ${ms(result.one.median)}, p95 ${ms(result.one.p95)}`
  );
}

/** A "at scale ≤ k × small" figure. */
function scaleFigure(
  figure: string,
  small: number,
  big: number,
  budget: number,
  unit: (n: number) => string,
): void {
  const value = big / small;
  const measured = `${unit(small)} → ${unit(big)} = ${ratio(value, budget)}`;
  const verdict = recordFigure({
    group: GROUP,
    figure,
    measured,
    budget: `≤ ${budget} ×`,
    ok: value <= budget,
  });
  console.log(`  ${figure}: ${measured} (budget ≤ ${budget} ×): ${verdict}`);
}

function absoluteFigure(figure: string, value: number, budget: number): void {
  const verdict = recordMsFigure(GROUP, figure, value, budget);
  console.log(`  ${figure}: ${ms(value, budget)} (budget ≤ ${budget} ms): ${verdict}`);
}

// -- The benchmark -----------------------------------------------------------------------------

export async function benchmarkScale(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), "livelocal-bench-scale-"));
  const running = new Set<BackendProcess>();
  const stop = async (backend: BackendProcess) => {
    running.delete(backend);
    await backend.stop();
  };
  const benchStarted = performance.now();
  try {
    console.log(
      "\nIssue 15: the standalone backend (tsx local-backend/host/server.ts, no crons), as its own process",
    );
    const folders = await buildFolders(root);
    const demoLabel = "demo data";
    const bigLabel = `+${BIG} streams`;

    // Start-up, memory, reads and a mutation: demo → 50,000 streams.
    const [demo, big] = await startUps([folders.demo, folders.big]);
    running.add(demo.backend).add(big.backend);
    console.log(`Demo data:          ${demo.all}`);
    console.log(`With ${BIG} streams: ${big.all}`);
    const explore = await alternate(
      "explore:listExploreStreams",
      READ_RUNS,
      [demo.backend, big.backend].map((backend) => ({
        backend,
        call: () =>
          new ConvexHttpClient(backend.url).query(api.explore.listExploreStreams, EXPLORE_FIRST_PAGE),
      })),
    );
    printPair("explore first page (24, no filter)", demoLabel, bigLabel, explore);
    const board = await BackendProcess.start(folders.board);
    running.add(board);
    const liveNow = await alternate(
      "streams:listLiveNow",
      READ_RUNS,
      [demo.backend, board, big.backend].map((backend) => ({
        backend,
        call: () => liveBoard(backend),
      })),
    );
    printPair("streams:listLiveNow", demoLabel, bigLabel, [liveNow[0], liveNow[2]]);
    console.log(`    ${`demo + ${folders.boardLive} live`.padEnd(22)} ${describeTimed(liveNow[1])}`);
    const toggles = [await statusToggle(demo.backend), await statusToggle(big.backend)];
    const mutation = await alternate("streams:setStreamStatus", MUTATION_RUNS, toggles);
    for (const toggle of toggles) await toggle.restore();
    printPair(
      `streams:setStreamStatus ("${toggles[0].title}"; "${toggles[1].title}")`,
      demoLabel,
      bigLabel,
      mutation,
    );
    await liveMapReads(big.backend, bigLabel);
    const live = await liveTarget(big.backend);
    await insightsBurst(big.backend, `with ${BIG} streams`, {
      streamId: live.target._id,
      owner: live.seller,
    });
    // After the map and the burst, so that their calls are among those set against the limits.
    await printLimitUse(big.backend, bigLabel);
    await stop(big.backend);

    // Mutation → update and explore's documents read: demo → 10,000 streams.
    const mid = await BackendProcess.start(folders.mid);
    running.add(mid);
    const [demo50, board50, mid50] = await alternatePropagation([demo.backend, board, mid], 2);
    await stop(board);
    const demoBoard = (await liveBoard(demo.backend)).length;
    console.log(`  mutation → update, ${SUBSCRIBERS} anonymous clients, ${2 * CHANGES} changes each:`);
    console.log(`    ${demoLabel.padEnd(22)} ${describePropagation(demo50)}`);
    console.log(`    ${`demo + ${folders.boardLive} live`.padEnd(22)} ${describePropagation(board50)}`);
    console.log(`    ${`+${MID} streams`.padEnd(22)} ${describePropagation(mid50)}`);
    const signedIn = await propagate(demo.backend, SIGNED_IN_SUBSCRIBERS, SIGNED_IN_CHANGES, true);
    console.log(
      `  mutation → update, ${SIGNED_IN_SUBSCRIBERS} clients each signed in as a different person, ${SIGNED_IN_CHANGES} changes, demo data:`,
    );
    console.log(`    ${"".padEnd(22)} ${describePropagation(signedIn)}\n`);
    const exploreCases = await exploreDemoCases(demo.backend);
    await liveMapReads(demo.backend, demoLabel);
    await stop(demo.backend);
    await exploreAtScale(mid, exploreCases, MID);
    await liveMapReads(mid, `+${MID} streams`);

    // The watch list at its limits: demo + 200 → 10,000 streams.
    const small = await BackendProcess.start(folders.small);
    running.add(small);
    const readers = [await watchListReader(small), await watchListReader(mid)];
    const watchList = await alternate(
      "watchList:myWatchList",
      READ_RUNS,
      readers.map((reader, index) => ({ backend: [small, mid][index], call: reader.read })),
    );
    console.log(
      `Watch list at its limits (${folders.fill.saved} saved shows, ${folders.fill.followed} shops followed; ${readers[1].description}):`,
    );
    console.log(`    ${`demo + ${SMALL} streams`.padEnd(22)} ${describeTimed(watchList[0])}`);
    console.log(`    ${`+${MID} streams`.padEnd(22)} ${describeTimed(watchList[1])}`);
    const readBudget = watchListReadBudget(folders.fill);
    const readsVerdict = recordFigure({
      group: EARLIER,
      figure: `watch list at its limits, documents read, +${MID} streams`,
      measured: String(watchList[1].docsRead),
      budget: `≤ ${readBudget} (3/saved, 8/followed, 1)`,
      ok: watchList[1].docsRead <= readBudget,
    });
    console.log(
      `  documents read with ${MID} streams: ${watchList[1].docsRead} (issue 8 budget ${readBudget}): ${readsVerdict}`,
    );
    await printLimitUse(mid, `+${MID} streams`);
    await stop(small);
    await stop(mid);

    console.log(`\nIssue 15 figures (backend times are medians):`);
    absoluteFigure(`watchList:myWatchList at its limits, +${MID} streams`, watchList[1].backend.median, 50);
    scaleFigure(
      `watchList:myWatchList at its limits, demo+${SMALL} → +${MID} streams`,
      watchList[0].backend.median,
      watchList[1].backend.median,
      1.5,
      ms,
    );
    scaleFigure(
      `explore first page, demo → +${BIG} streams`,
      explore[0].backend.median,
      explore[1].backend.median,
      1.5,
      ms,
    );
    scaleFigure(
      `streams:listLiveNow, board full, demo+${folders.boardLive} live → +${BIG} streams`,
      liveNow[1].backend.median,
      liveNow[2].backend.median,
      1.5,
      ms,
    );
    console.log(
      `  (streams:listLiveNow, demo → +${BIG} streams, its result growing from ${liveNow[0].docsRead} to ${liveNow[2].docsRead} documents read: ${ms(liveNow[0].backend.median)} → ${ms(liveNow[2].backend.median)} = ${ratio(liveNow[2].backend.median / liveNow[0].backend.median)}, no budget)`,
    );
    absoluteFigure(`mutation → update, ${SUBSCRIBERS} clients, demo, p50`, demo50.every.median, 5);
    absoluteFigure(`mutation → update, ${SUBSCRIBERS} clients, demo, p95`, demo50.every.p95, 15);
    for (const [label, pick] of [
      ["p50", (result: { every: Summary }) => result.every.median],
      ["p95", (result: { every: Summary }) => result.every.p95],
    ] as const) {
      scaleFigure(
        `mutation → update, ${SUBSCRIBERS} clients, ${label}, board full, demo+${folders.boardLive} live → +${MID} streams`,
        pick(board50),
        pick(mid50),
        2,
        ms,
      );
    }
    console.log(
      `  (mutation → update, ${SUBSCRIBERS} clients, demo → +${MID} streams, the board growing from ${demoBoard} to ${LIVE_BOARD} cards: p50 ${ms(demo50.every.median)} → ${ms(mid50.every.median)} = ${ratio(mid50.every.median / demo50.every.median)}, p95 ${ms(demo50.every.p95)} → ${ms(mid50.every.p95)} = ${ratio(mid50.every.p95 / demo50.every.p95)}, no budget)`,
    );
    absoluteFigure(
      `mutation → update, ${SIGNED_IN_SUBSCRIBERS} signed-in clients, demo, p95`,
      signedIn.every.p95,
      50,
    );
    scaleFigure(
      `one setStreamStatus, demo → +${BIG} streams`,
      mutation[0].backend.median,
      mutation[1].backend.median,
      1.5,
      ms,
    );
    scaleFigure(`start-up, demo → +${BIG} streams`, demo.startupMs, big.startupMs, 1.2, seconds);
    scaleFigure(`standalone resident memory, demo → +${BIG} streams`, demo.rss, big.rss, 1.3, mb);
    console.log(`  (issue 15 measurements took ${seconds(performance.now() - benchStarted)})`);
  } finally {
    await Promise.all([...running].map((backend) => backend.stop()));
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchmarkScale().then(
    () => {
      printFigures();
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
