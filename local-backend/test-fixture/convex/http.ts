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

http.route({
  path: "/messages",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const { channel, body } = (await request.json()) as { channel: string; body: string };
    const id = await ctx.runMutation(addRef, { channel, body, author: "http" });
    return Response.json({ id }, { status: 201 });
  }),
});

export default http;
