/**
 * Issue 19's figure: a go-live fanned out to 1,000 followers (decision 036). The standalone backend
 * (its own process, a throwaway store seeded with the demo data, no crons) gets 1,000 people who follow
 * a demo shop with go-live e-mail and push on, each with a push device whose endpoint is this script's
 * own HTTP server (it counts the encrypted pushes it receives and answers 201, as a push service does).
 * The shop's owner flips its scheduled show live; the script prints how long until all 1,000 e-mails
 * are in the local inbox and all 1,000 pushes have reached the endpoint, and, from the backend's
 * per-function statistics, the work of each fan-out transaction: that it stays bounded by the batch
 * (100 people), not by the number of followers. The hourly allowance is per person, so each of the
 * 1,000 gets their one.
 *
 * Budgets: everything delivered within 60 s of "Go live" on this 2-core machine; per fan-out
 * transaction at most 1,000 documents read and 1,000 written (Convex allows 16,384 and 8,192; a batch
 * is 100 people at a handful of rows each); the seller's own mutation reads at most 100 documents (it
 * only schedules the fan-out).
 *
 * Alone: `npm run bench:fanout`; also part of `npm run bench`.
 */
import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { makeFunctionReference } from "convex/server";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { demoSellerWithStream } from "../../tests/support/demo-seller";
import { BackendProcess, type FunctionStats } from "./backend-process";
import { printFigures, recordFigure } from "./stats";

const GROUP = "Issue 19: notifications (standalone backend process)";
const FOLLOWERS = 1_000;
const SETUP_BATCH = 250;
const DELIVERY_BUDGET_MS = 60_000;
const DOCS_PER_TRANSACTION_BUDGET = 1_000;
const SELLER_MUTATION_READ_BUDGET = 100;
/** Each poll of the inbox reads its rows: not so often that the polling slows what it measures. */
const POLL_MS = 250;

/** The backend's statistics also count documents written, and the most read by one call. */
type Stats = FunctionStats & { docsWritten?: number; maxDocsRead?: number };

/** An HTTP server standing in for a push service: counts the pushes it receives. */
async function pushEndpoint(): Promise<{ base: string; received: () => number; close: () => void }> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.method === "POST" && request.headers["content-encoding"] === "aes128gcm") received++;
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}/push`, received: () => received, close: () => server.close() };
}

/** Milliseconds from `start` until `done()` holds, polling; throws after the budget's double. */
async function timeUntil(start: number, done: () => Promise<boolean>, what: string): Promise<number> {
  while (!(await done())) {
    if (performance.now() - start > 2 * DELIVERY_BUDGET_MS) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return performance.now() - start;
}

export async function benchmarkFanOut(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-fanout-"));
  const endpoint = await pushEndpoint();
  const backend = await BackendProcess.start(dataDir);
  try {
    const scheduled = demoSellerWithStream("SCHEDULED");
    // One browser key pair for every device: each push is still encrypted and signed on its own.
    const browser = createECDH("prime256v1");
    const p256dh = browser.generateKeys().toString("base64url");
    const auth = randomBytes(16).toString("base64url");
    let streamId: Id<"streams"> | null = null;
    for (let offset = 0; offset < FOLLOWERS; offset += SETUP_BATCH) {
      streamId = (await backend.runMutation("benchData:addFollowers", {
        streamTitle: scheduled.streamTitle,
        offset,
        count: Math.min(SETUP_BATCH, FOLLOWERS - offset),
        endpointBase: endpoint.base,
        p256dh,
        auth,
      })) as Id<"streams">;
    }
    if (!streamId) throw new Error("No followers were added.");

    const admin = backend.admin();
    const inboxCount = makeFunctionReference<"query">("benchData:inboxCount");
    const seller = backend.admin({ subject: scheduled.user.clerkId, issuer: "bench" });
    const since = Date.now();
    const start = performance.now();
    await seller.mutation(api.streams.setStreamStatus, { streamId, status: "LIVE" });
    const liveMs = performance.now() - start;
    const [emailMs, pushMs] = await Promise.all([
      timeUntil(
        start,
        async () =>
          ((await admin.query(inboxCount, { since, limit: FOLLOWERS + 10 })) as number) >= FOLLOWERS,
        "the e-mails",
      ),
      timeUntil(start, async () => await Promise.resolve(endpoint.received() >= FOLLOWERS), "the pushes"),
    ]);
    const emails = (await admin.query(inboxCount, { since, limit: FOLLOWERS + 10 })) as number;
    const pushes = endpoint.received();

    const stats = (await backend.stats()) as Record<string, Stats>;
    const flip = stats["streams:setStreamStatus"];
    if (!flip) throw new Error("No statistics for the seller's go-live.");
    const fanOutRuns = (await admin.query(makeFunctionReference<"query">("benchData:scheduledRuns"), {
      name: "goLiveAlerts:fanOut",
    })) as number;

    // The backend keeps statistics for calls made to it, not for scheduled runs: one full batch (100
    // followers, each wanting e-mail, push and the in-app alert) is run as a call of its own, on a live
    // copy of the show that nobody has been told about yet, to count one transaction's documents.
    const copy = (await backend.runMutation("benchData:quietLiveCopy", { streamId })) as Id<"streams">;
    const fanOutBefore = ((await backend.stats()) as Record<string, Stats>)["goLiveAlerts:fanOut"];
    await backend.runMutation("goLiveAlerts:fanOut", { streamId: copy, phase: "followed", cursor: null });
    const fanOut = ((await backend.stats()) as Record<string, Stats>)["goLiveAlerts:fanOut"];
    if (!fanOut || fanOut.calls !== (fanOutBefore?.calls ?? 0) + 1)
      throw new Error("Expected one fan-out call.");
    const batchRead = fanOut.docsRead - (fanOutBefore?.docsRead ?? 0);
    const batchWritten = (fanOut.docsWritten ?? NaN) - (fanOutBefore?.docsWritten ?? 0);

    console.log(`\nGo-live fan-out to ${FOLLOWERS.toLocaleString("en-US")} followers (e-mail and push each)`);
    console.log(
      `  "Go live" answered in ${liveMs.toFixed(0)} ms (${flip.maxDocsRead ?? "?"} documents read)`,
    );
    const delivered = recordFigure({
      group: GROUP,
      figure: `go-live to ${FOLLOWERS} followers: all e-mails in the inbox, all pushes delivered`,
      measured: `${(Math.max(emailMs, pushMs) / 1000).toFixed(1)} s`,
      budget: `≤ ${DELIVERY_BUDGET_MS / 1000} s`,
      ok: Math.max(emailMs, pushMs) <= DELIVERY_BUDGET_MS && emails === FOLLOWERS && pushes === FOLLOWERS,
    });
    console.log(
      `  ${emails} e-mails in the local inbox after ${(emailMs / 1000).toFixed(1)} s, ${pushes} pushes received after ${(pushMs / 1000).toFixed(1)} s — ${delivered} (budget: ≤ ${DELIVERY_BUDGET_MS / 1000} s)`,
    );
    const bounded = recordFigure({
      group: GROUP,
      figure: "documents one fan-out transaction reads and writes (a batch of 100)",
      measured: `${batchRead} read, ${batchWritten} written`,
      budget: `≤ ${DOCS_PER_TRANSACTION_BUDGET} each`,
      ok: batchRead <= DOCS_PER_TRANSACTION_BUDGET && batchWritten <= DOCS_PER_TRANSACTION_BUDGET,
    });
    console.log(
      `  ${fanOutRuns} fan-out transactions for ${FOLLOWERS} followers, each a batch of at most 100 that schedules the next; one full batch read ${batchRead} documents and wrote ${batchWritten} — ${bounded} (budget: ≤ ${DOCS_PER_TRANSACTION_BUDGET} each, whatever the number of followers)`,
    );
    const sellerRead = flip.maxDocsRead ?? NaN;
    const quick = recordFigure({
      group: GROUP,
      figure: "documents the seller's go-live mutation reads (fan-out scheduled, not done)",
      measured: `${sellerRead}`,
      budget: `≤ ${SELLER_MUTATION_READ_BUDGET}`,
      ok: sellerRead <= SELLER_MUTATION_READ_BUDGET,
    });
    console.log(
      `  the seller's setStreamStatus read ${sellerRead} documents — ${quick} (budget: ≤ ${SELLER_MUTATION_READ_BUDGET})`,
    );
  } finally {
    await backend.stop();
    endpoint.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchmarkFanOut().then(
    () => printFigures(),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
