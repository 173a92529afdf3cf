/**
 * The authorization matrix: every public function, called as each kind of caller, allows or denies as
 * PRODUCT.md "Roles" says. A public function without a row here fails the first test.
 */
import { getFunctionName } from "convex/server";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { insertLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { modules, newTest } from "./test.setup";

const CALLERS = ["signedOut", "viewer", "otherSeller", "owner", "admin"] as const;
type Caller = (typeof CALLERS)[number];

type Fixture = { liveShopId: Id<"liveShops">; streamId: Id<"streams"> };
type Backend = ReturnType<typeof newTest>;
type Call = (t: Backend, fixture: Fixture) => Promise<unknown>;

/**
 * "allow": a mutation ran, a query returned something. A denied mutation throws a code; a denied query
 * degrades to an empty result.
 */
type Outcome = "allow" | { throws: string } | "empty";

type Row = { kind: "query" | "mutation"; call: Call; expect: Record<Caller, Outcome> };

const everyone = (outcome: Outcome): Record<Caller, Outcome> => ({
  signedOut: outcome,
  viewer: outcome,
  otherSeller: outcome,
  owner: outcome,
  admin: outcome,
});
const UNAUTHENTICATED = { throws: "UNAUTHENTICATED" };
const FORBIDDEN = { throws: "FORBIDDEN" };

const MATRIX: Record<string, Row> = {
  "users:viewer": {
    kind: "query",
    call: (t) => t.query(api.users.viewer, {}),
    expect: { ...everyone("allow"), signedOut: "empty" },
  },
  "users:ensureUser": {
    kind: "mutation",
    call: (t) => t.mutation(api.users.ensureUser, {}),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "streams:listLiveNow": {
    kind: "query",
    call: (t) => t.query(api.streams.listLiveNow, {}),
    expect: everyone("allow"),
  },
  "streams:listMyStreams": {
    kind: "query",
    call: (t) => t.query(api.streams.listMyStreams, {}),
    expect: { signedOut: "empty", viewer: "empty", otherSeller: "allow", owner: "allow", admin: "empty" },
  },
  "streams:setStreamStatus": {
    kind: "mutation",
    call: (t, { streamId }) => t.mutation(api.streams.setStreamStatus, { streamId, status: "CANCELLED" }),
    expect: {
      signedOut: UNAUTHENTICATED,
      viewer: FORBIDDEN,
      otherSeller: FORBIDDEN,
      owner: "allow",
      admin: "allow",
    },
  },
};

const IDENTITIES: Record<Exclude<Caller, "signedOut">, { subject: string; email: string; name: string }> = {
  viewer: { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" },
  otherSeller: { subject: "user_omar", email: "omar@livelocal.test", name: "Omar Other" },
  owner: { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Owner" },
  admin: { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" },
};

async function setUp(): Promise<{ t: Backend; fixture: Fixture }> {
  const t = newTest();
  const fixture = await t.run(async (ctx) => {
    const ids = {} as Record<keyof typeof IDENTITIES, Id<"users">>;
    for (const [caller, identity] of Object.entries(IDENTITIES) as [
      keyof typeof IDENTITIES,
      typeof IDENTITIES.owner,
    ][]) {
      const role = caller === "admin" ? "admin" : caller === "viewer" ? "viewer" : "seller";
      ids[caller] = await insertUser(ctx, {
        clerkId: identity.subject,
        email: identity.email,
        name: identity.name,
        role,
      });
    }
    await insertLiveShop(ctx, {
      userId: ids.otherSeller,
      liveShopName: "Omar's",
      slug: "omars",
      status: "active",
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: ids.owner,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + 3_600_000,
      streamStopUTC: Date.now() + 7_200_000,
    });
    await insertStream(ctx, {
      liveShopId,
      streamTitle: "Live now",
      streamStatus: "LIVE",
      streamStartUTC: Date.now(),
    });
    return { liveShopId, streamId };
  });
  return { t, fixture };
}

function isEmpty(result: unknown): boolean {
  return result === null || (Array.isArray(result) && result.length === 0);
}

describe("authorization matrix", () => {
  test("every public function has a row", async () => {
    const publicFunctions: string[] = [];
    for (const [path, load] of Object.entries(modules)) {
      if (path.includes("_generated") || path.includes("/lib/") || path.includes("/model/")) continue;
      const exports = (await load()) as Record<string, { isPublic?: boolean }>;
      const moduleName = path.replace(/^\.\//, "").replace(/\.[jt]s$/, "");
      for (const [name, value] of Object.entries(exports)) {
        if (value?.isPublic) publicFunctions.push(`${moduleName}:${name}`);
      }
    }
    expect(publicFunctions.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  const cases = Object.entries(MATRIX).flatMap(([name, row]) =>
    CALLERS.map((caller) => [name, caller, row.expect[caller], row] as const),
  );

  test.each(cases)("%s as %s → %o", async (name, caller, outcome, row) => {
    const { t, fixture } = await setUp();
    const backend = caller === "signedOut" ? t : t.withIdentity(IDENTITIES[caller]);
    const run = row.call(backend as Backend, fixture);
    if (typeof outcome === "object") {
      await expect(run).rejects.toMatchObject({ data: { code: outcome.throws } });
      return;
    }
    const result = await run;
    if (row.kind === "query") expect(isEmpty(result), `${name} as ${caller}`).toBe(outcome === "empty");
  });

  test("the matrix names real functions", () => {
    expect(getFunctionName(api.streams.setStreamStatus)).toBe("streams:setStreamStatus");
  });
});
