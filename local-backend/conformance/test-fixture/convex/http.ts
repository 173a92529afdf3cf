import { httpRouter, makeFunctionReference } from "convex/server";
import { httpAction } from "./_generated/server";

const addRef = makeFunctionReference<"mutation", { channel: string; author: string; body: string }, string>(
  "messages:add",
);

const http = httpRouter();

http.route({
  path: "/hello",
  method: "GET",
  handler: httpAction(async (ctx, request) => {
    const identity = await ctx.auth.getUserIdentity();
    const url = new URL(request.url);
    return Response.json({
      hello: url.searchParams.get("name") ?? "world",
      subject: identity?.subject ?? null,
    });
  }),
});

// The caller's identity; a refused token makes getUserIdentity() throw, as on Convex.
http.route({
  path: "/identity",
  method: "GET",
  handler: httpAction(async (ctx) => Response.json(await ctx.auth.getUserIdentity())),
});

http.route({
  path: "/messages",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const { channel, body } = (await request.json()) as { channel: string; body: string };
    const id = await ctx.runMutation(addRef, { channel, body, author: "http" });
    return Response.json({ id }, { status: 201 });
  }),
});

// File storage in HTTP actions: POST stores the body (checked against a `Digest: sha-256=…` header,
// as Convex's own tests pass it on), GET /files?id=… answers it (404 when gone).
http.route({
  path: "/files",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const digest = request.headers.get("digest");
    const sha256 = digest?.startsWith("sha-256=") ? digest.slice("sha-256=".length) : undefined;
    const id = await ctx.storage.store(await request.blob(), { sha256 });
    return Response.json({ id }, { status: 201 });
  }),
});

http.route({
  path: "/files",
  method: "GET",
  handler: httpAction(async (ctx, request) => {
    const id = new URL(request.url).searchParams.get("id") ?? "";
    const blob = await ctx.storage.get(id as never);
    return blob
      ? new Response(blob, { headers: { "Content-Type": "text/plain" } })
      : new Response("gone", { status: 404 });
  }),
});

// Loops while `?forever=1` (user-code.test.ts: the action timeout ends it, everyone else is served).
http.route({
  path: "/loop",
  method: "GET",
  handler: httpAction((_ctx, request) => {
    const forever = new URL(request.url).searchParams.get("forever") === "1";
    while (forever) {
      // spins
    }
    return Promise.resolve(new Response("done"));
  }),
});

// A streamed body, its status and headers (two cookies), and `?bytes=N` of body in 1 MiB chunks.
http.route({
  path: "/stream",
  method: "GET",
  handler: httpAction((_ctx, request) => {
    const bytes = Number(new URL(request.url).searchParams.get("bytes") ?? "0");
    const chunks = ["one ", "two ", "three"].map((text) => new TextEncoder().encode(text));
    for (let left = bytes; left > 0; left -= 1 << 20) chunks.push(new Uint8Array(Math.min(left, 1 << 20)));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const headers = new Headers({ "Content-Type": "text/plain" });
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    return Promise.resolve(new Response(body, { status: 203, headers }));
  }),
});

export default http;
