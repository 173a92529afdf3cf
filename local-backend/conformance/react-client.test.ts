/** ConvexReactClient (outside React) against the local backend: same protocol, its own wrapper. */
import { ConvexReactClient } from "convex/react";
import type { Value } from "convex/values";
import { WebSocket } from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { eventually, m, q, startFixtureBackend } from "./test-helpers.ts";

let backend: RunningLocalBackend;
beforeAll(async () => {
  backend = await startFixtureBackend();
});
afterAll(async () => {
  await backend.stop();
});

it("watches a query and sees a mutation's write when the mutation resolves", async () => {
  const client = new ConvexReactClient(backend.url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    skipConvexDeploymentUrlCheck: true,
    logger: false,
    unsavedChangesWarning: false,
  });
  try {
    const watch = client.watchQuery(q("messages:list"), { channel: "react" });
    const updates: (Value | undefined)[] = [];
    const stop = watch.onUpdate(() => updates.push(watch.localQueryResult()));
    await eventually(() => watch.localQueryResult() !== undefined);
    await client.mutation(m("messages:send"), { channel: "react", body: "from react" });
    expect(watch.localQueryResult()).toEqual([{ author: "anonymous", body: "from react" }]);
    const { token } = await backend.issueToken({ sub: "react-user", name: "Rea" });
    const changes: boolean[] = [];
    client.setAuth(
      () => Promise.resolve(token),
      (ok) => changes.push(ok),
    );
    await eventually(() => changes.includes(true));
    expect(await client.query(q("messages:whoami"), {})).toMatchObject({
      subject: "react-user",
      name: "Rea",
    });
    stop();
  } finally {
    await client.close();
  }
});
