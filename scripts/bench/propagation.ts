/**
 * Mutation → update: clients subscribed to `streams:listLiveNow` (the home page's live board), a
 * seller changing one of its streams between LIVE and PAUSED, one change at a time; each latency runs
 * from sending the mutation to a client's callback with the changed result. The next change is sent
 * once every client has seen the last.
 *
 * A client has seen a change when the target stream's place in its result differs from before the
 * change (its status, or its absence: with more live streams than the board shows, a paused stream
 * falls off it).
 */
import { ConvexClient } from "convex/browser";
import WebSocket from "ws";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { summarize } from "./stats";

export type Identity = { sub: string; email: string; name: string };
export type Summary = ReturnType<typeof summarize>;

export type PropagationRun = {
  url: string;
  subscribers: number;
  changes: number;
  /** Each subscriber signed in as a different person (so no two share a query). */
  signedIn: boolean;
  token: (identity: Identity) => Promise<string>;
  /** Signed in as the target stream's owner. */
  seller: ConvexClient;
  target: { _id: Id<"streams">; streamStatus: string };
};

/** Latencies in ms: of the first client, and of every client. */
export type PropagationResult = {
  one: Summary;
  every: Summary;
  samples: { one: number[]; every: number[] };
};

export function newClient(url: string, token?: () => Promise<string>): ConvexClient {
  const client = new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
  });
  if (token) client.setAuth(token);
  return client;
}

export async function propagation(run: PropagationRun): Promise<PropagationResult> {
  const placeOf = (cards: { _id: string; streamStatus: string }[]) =>
    cards.find((card) => card._id === run.target._id)?.streamStatus ?? "absent";
  let pending: { start: number; before: string; seen: Set<number>; done: () => void } | null = null;
  const firstObserver: number[] = [];
  const allObservers: number[] = [];
  const subscribed: ConvexClient[] = [];
  /** Each client's last seen place of the target. */
  const places: string[] = [];
  try {
    for (let index = 0; index < run.subscribers; index++) {
      const identity: Identity = {
        sub: `bench-viewer-${index}`,
        email: `viewer${index}@bench.example`,
        name: `Viewer ${index}`,
      };
      const client = newClient(run.url, run.signedIn ? () => run.token(identity) : undefined);
      subscribed.push(client);
      await new Promise<void>((resolve) => {
        client.onUpdate(api.streams.listLiveNow, {}, (cards) => {
          const place = placeOf(cards);
          places[index] = place;
          if (!pending) {
            resolve();
            return;
          }
          if (place !== pending.before && !pending.seen.has(index)) {
            const latency = performance.now() - pending.start;
            pending.seen.add(index);
            allObservers.push(latency);
            if (index === 0) firstObserver.push(latency);
            if (pending.seen.size === run.subscribers) pending.done();
          }
        });
      });
    }
    if (places[0] === "absent") throw new Error("The target stream is not on the live board.");
    let status = run.target.streamStatus;
    for (let change = 0; change < run.changes; change++) {
      status = status === "LIVE" ? "PAUSED" : "LIVE";
      const before = places[0] ?? "";
      const all = new Promise<void>((resolve) => {
        pending = { start: performance.now(), before, seen: new Set(), done: resolve };
      });
      await run.seller.mutation(api.streams.setStreamStatus, {
        streamId: run.target._id,
        status: status as "LIVE" | "PAUSED",
      });
      await all;
      pending = null;
    }
    if (status !== run.target.streamStatus) {
      await run.seller.mutation(api.streams.setStreamStatus, {
        streamId: run.target._id,
        status: run.target.streamStatus as "LIVE",
      });
    }
  } finally {
    await Promise.all(subscribed.map((client) => client.close()));
  }
  return {
    one: summarize(firstObserver),
    every: summarize(allObservers),
    samples: { one: firstObserver, every: allObservers },
  };
}
