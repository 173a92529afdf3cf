import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { newTest } from "./test.setup";

const sarah = { subject: "user_sarah", email: "Sarah@LiveLocal.test", name: "Sarah" };

describe("users", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("ensureUser creates a viewer from the token, once", async () => {
    const t = newTest().withIdentity(sarah);
    const first = await t.mutation(api.users.ensureUser, {});
    const second = await t.mutation(api.users.ensureUser, {});
    expect(second).toBe(first);
    expect(await t.query(api.users.viewer, {})).toMatchObject({
      _id: first,
      email: "sarah@livelocal.test",
      name: "Sarah",
      role: "viewer",
    });
  });

  test("ensureUser refreshes name and email from the token but never the role", async () => {
    const base = newTest();
    const id = await base.withIdentity(sarah).mutation(api.users.ensureUser, {});
    await base.run(async (ctx) => await ctx.db.patch("users", id, { role: "seller" }));
    await base
      .withIdentity({ ...sarah, name: "Sarah K.", email: "sk@livelocal.test" })
      .mutation(api.users.ensureUser, {});
    expect(await base.withIdentity(sarah).query(api.users.viewer, {})).toMatchObject({
      name: "Sarah K.",
      email: "sk@livelocal.test",
      role: "seller",
    });
  });

  test("an email listed in ADMIN_EMAILS becomes an admin when the user is created", async () => {
    vi.stubEnv("ADMIN_EMAILS", "ops@livelocal.test, sarah@livelocal.test");
    const t = newTest().withIdentity(sarah);
    await t.mutation(api.users.ensureUser, {});
    expect(await t.query(api.users.viewer, {})).toMatchObject({ role: "admin" });
  });

  test("a token without an email is refused with a sentence", async () => {
    const t = newTest().withIdentity({ subject: "user_noemail" });
    await expect(t.mutation(api.users.ensureUser, {})).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
  });

  test("signed in but before ensureUser, the viewer is null (the client shows loading)", async () => {
    const t = newTest().withIdentity(sarah);
    expect(await t.query(api.users.viewer, {})).toBeNull();
  });
});
