/**
 * The rule of test.hooks.ts: a scheduled function's error fails the test that scheduled it. The case
 * is the one it was written for: an admin's cancel schedules `notifications:notifyPerson` to tell the
 * seller, whose e-mail (to the local inbox, on the local backend) needs NOTIFICATIONS_SECRET for its
 * unsubscribe link.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { assertNoScheduledFunctionErrors, takeScheduledFunctionErrors } from "./test.hooks";
import { createSellerWithShop, newTest } from "./test.setup";

const ADA = { subject: "user_ada", email: "ada@livelocal.test" };

/** An admin cancels Sarah's show with NOTIFICATIONS_SECRET unset; the notice to Sarah cannot be sent. */
async function cancelWithoutSecret() {
  vi.stubEnv("LIVELOCAL_LOCAL_AUTH_ISSUER", "https://auth.livelocal.localhost");
  vi.stubEnv("LIVELOCAL_APP_ORIGIN", "http://127.0.0.1:5173");
  vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "");
  vi.stubEnv("RESEND_API_KEY", "");
  vi.stubEnv("NOTIFICATIONS_SECRET", "");
  const t = newTest();
  const streamId = await t.run(async (ctx) => {
    await insertUser(ctx, { clerkId: ADA.subject, email: ADA.email, role: "admin" });
    const { liveShopId } = await createSellerWithShop(ctx, { status: "active" });
    return await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + 3_600_000,
      streamStopUTC: Date.now() + 7_200_000,
    });
  });
  await t.withIdentity(ADA).mutation(api.streams.setStreamStatus, {
    streamId,
    status: "CANCELLED",
    reason: "Listed twice.",
  });
  await t.finishAllScheduledFunctions(() => undefined);
  return t;
}

describe("a scheduled function's error", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("is reported with the function's name and its error", async () => {
    await cancelWithoutSecret();
    expect(() => assertNoScheduledFunctionErrors()).toThrow(
      /scheduled function\(s\) failed:\n {2}notifications:notifyPerson: Error: NOTIFICATIONS_SECRET is not set/,
    );
  });

  test("is taken by a test whose point it is, and then fails nothing", async () => {
    const t = await cancelWithoutSecret();
    const errors = takeScheduledFunctionErrors();
    expect(errors.map(({ name }) => name)).toEqual(["notifications:notifyPerson"]);
    expect(String(errors[0].error)).toMatch(/^Error: NOTIFICATIONS_SECRET is not set/);
    const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    expect(jobs.map((job) => [job.name, job.state.kind])).toContainEqual([
      "notifications:notifyPerson",
      "failed",
    ]);
  });

  // Everything the body checks holds; only the rule, after the test, can fail it.
  test.fails("fails the test that scheduled it, though the test asserts nothing about it", async () => {
    const t = await cancelWithoutSecret();
    expect(await t.run(async (ctx) => (await ctx.db.query("streams").first())?.streamStatus)).toBe(
      "CANCELLED",
    );
  });
});
