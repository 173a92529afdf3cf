/**
 * The authorization matrix (testing/authorization.matrix.ts): every public function, called as each kind
 * of caller, allows or denies as docs/product.md#roles says. A public function without a row there fails
 * the first test.
 */
import { getFunctionName } from "convex/server";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import {
  CALLERS,
  IDENTITIES,
  MATRIX,
  addAlertForCaller,
  isEmpty,
  setUp,
} from "./testing/authorization.matrix";
import { modules, newTest } from "./test.setup";

describe("authorization matrix", () => {
  test("every public function has a row", async () => {
    const publicFunctions: string[] = [];
    for (const [path, load] of Object.entries(modules)) {
      if (path.includes("_generated") || path.includes("/lib/") || path.includes("/model/")) continue;
      if (path.endsWith("convex.config.ts")) continue;
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
    const { t, fixture } = await setUp(newTest());
    const backend = caller === "signedOut" ? t : t.withIdentity(IDENTITIES[caller]);
    const run = row.call(backend, fixture);
    if (typeof outcome === "object") {
      await expect(run).rejects.toMatchObject({ data: { code: outcome.throws } });
      return;
    }
    const result = await run;
    if (row.kind === "query") expect(isEmpty(result), `${name} as ${caller}`).toBe(outcome === "empty");
  });

  test("nobody claims another person's go-live alert", async () => {
    const { t, fixture } = await setUp(newTest());
    const sarahsAlert = await addAlertForCaller(t.withIdentity(IDENTITIES.owner), fixture);
    for (const caller of ["viewer", "otherSeller", "admin"] as const) {
      await expect(
        t.withIdentity(IDENTITIES[caller]).mutation(api.goLiveAlerts.claim, { alertId: sarahsAlert }),
      ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    }
    const alert = await t.run(async (ctx) => await ctx.db.get("goLiveAlerts", sarahsAlert));
    expect(alert?.claimedAt).toBeUndefined();
  });

  test("the matrix names real functions", () => {
    expect(getFunctionName(api.streams.setStreamStatus)).toBe("streams:setStreamStatus");
  });
});
