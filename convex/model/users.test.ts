import { describe, expect, test } from "vitest";
import { newTest } from "../test.setup";
import { TERMS_VERSION } from "../lib/constants";
import { insertLiveShop } from "./liveShops";
import { becomeSellerForNewShop, insertUser, patchUser } from "./users";

const sarah = { clerkId: "user_sarah", email: "sarah@livelocal.test", name: "Sarah" };

describe("users write helpers", () => {
  test("a new user is a viewer who accepted terms 1.0 at creation, with no privacy request", async () => {
    const t = newTest();
    const user = await t.run(async (ctx) => {
      const id = await insertUser(ctx, sarah, 1_000);
      return await ctx.db.get("users", id);
    });
    expect(user).toMatchObject({
      role: "viewer",
      termsAcceptance: { version: TERMS_VERSION, acceptedAt: 1_000 },
      gdprRequestStatus: "none",
      gdprRequestType: "none",
      paymentMethods: [],
      createdAt: 1_000,
      updatedAt: 1_000,
    });
  });

  test("the clerkId is unique", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      await insertUser(ctx, sarah);
      await expect(insertUser(ctx, { ...sarah, email: "other@livelocal.test" })).rejects.toThrow(
        /sign-in id/,
      );
    });
  });

  test("the email is unique, whatever its capitalisation", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      await insertUser(ctx, sarah);
      await expect(insertUser(ctx, { clerkId: "user_lee", email: " SARAH@LiveLocal.test" })).rejects.toThrow(
        /email address already exists/,
      );
    });
  });

  test("a patch bumps updatedAt and keeps createdAt", async () => {
    const t = newTest();
    const user = await t.run(async (ctx) => {
      const id = await insertUser(ctx, sarah, 1_000);
      await patchUser(ctx, id, { name: "Sarah K." }, 2_000);
      return await ctx.db.get("users", id);
    });
    expect(user).toMatchObject({ name: "Sarah K.", createdAt: 1_000, updatedAt: 2_000 });
  });

  test("taking another user's email is refused and changes nothing", async () => {
    const t = newTest();
    const lee = await t.run(async (ctx) => {
      await insertUser(ctx, sarah);
      const leeId = await insertUser(ctx, { clerkId: "user_lee", email: "lee@livelocal.test" }, 5);
      await expect(patchUser(ctx, leeId, { email: sarah.email })).rejects.toThrow(/already exists/);
      return await ctx.db.get("users", leeId);
    });
    expect(lee).toMatchObject({ email: "lee@livelocal.test", updatedAt: 5 });
  });

  test("a user may keep their own email when patching", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const id = await insertUser(ctx, sarah);
      await patchUser(ctx, id, { email: sarah.email, name: "S" });
    });
  });
});

describe("becomeSellerForNewShop", () => {
  test("a viewer becomes a seller, logged as their own first shop; a seller and an admin keep their role", async () => {
    const t = newTest();
    const { roles, log } = await t.run(async (ctx) => {
      const viewer = await insertUser(ctx, sarah);
      const seller = await insertUser(ctx, {
        clerkId: "user_omar",
        email: "omar@livelocal.test",
        role: "seller",
      });
      const admin = await insertUser(ctx, {
        clerkId: "user_ada",
        email: "ada@livelocal.test",
        role: "admin",
      });
      for (const id of [viewer, seller, admin]) {
        await becomeSellerForNewShop(ctx, (await ctx.db.get("users", id))!, "Sarah's Vintage");
      }
      return {
        roles: await Promise.all(
          [viewer, seller, admin].map(async (id) => (await ctx.db.get("users", id))?.role),
        ),
        log: await ctx.db.query("adminActions").collect(),
      };
    });
    expect(roles).toEqual(["seller", "seller", "admin"]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action: "change_role",
      adminName: "Sarah",
      targetLabel: "Sarah (viewer → seller)",
      reason: "Opened their first shop.",
    });
  });

  test("a viewer who already owns a shop is refused and stays a viewer", async () => {
    const t = newTest();
    const role = await t.run(async (ctx) => {
      const userId = await insertUser(ctx, sarah);
      await insertLiveShop(ctx, { userId, liveShopName: "Old", slug: "old" });
      await expect(
        becomeSellerForNewShop(ctx, (await ctx.db.get("users", userId))!, "New"),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      return (await ctx.db.get("users", userId))?.role;
    });
    expect(role).toBe("viewer");
  });
});
