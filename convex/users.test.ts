import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { Role } from "./lib/constants";
import { LIMITS } from "./lib/validation";
import { insertUser } from "./model/users";
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

  test("a token's name over the limit is cut and a javascript: picture is left out, not refused", async () => {
    const t = newTest().withIdentity({
      ...sarah,
      name: `  ${"N".repeat(5000)}`,
      pictureUrl: "javascript:alert(1)",
    });
    const id = await t.mutation(api.users.ensureUser, {});
    const user = await t.run(async (ctx) => await ctx.db.get("users", id));
    expect(user?.name).toBe("N".repeat(LIMITS.userName));
    expect(user?.avatar).toBeUndefined();
    expect(user?.email).toBe("sarah@livelocal.test");
  });

  test.each([
    ["not an email", { email: "not-an-email" }],
    ["an email over 255 characters", { email: `${"x".repeat(300)}@livelocal.test` }],
    ["a subject over 255 characters", { subject: `user_${"x".repeat(5000)}` }],
  ])("a new account from a token with %s is refused, and nothing is written", async (_label, claims) => {
    const base = newTest();
    await expect(
      base.withIdentity({ ...sarah, ...claims }).mutation(api.users.ensureUser, {}),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    expect(await base.run(async (ctx) => await ctx.db.query("users").collect())).toEqual([]);
  });

  test("an existing account keeps its email when the token's is unusable, and still signs in", async () => {
    const base = newTest();
    const id = await base.withIdentity(sarah).mutation(api.users.ensureUser, {});
    await base.run(async (ctx) => await ctx.db.patch("users", id, { avatar: undefined }));
    for (const email of ["not-an-email", `${"x".repeat(300)}@livelocal.test`]) {
      const again = await base
        .withIdentity({ ...sarah, email, pictureUrl: "javascript:alert(1)" })
        .mutation(api.users.ensureUser, {});
      expect(again).toBe(id);
    }
    const user = await base.run(async (ctx) => await ctx.db.get("users", id));
    expect(user).toMatchObject({ email: "sarah@livelocal.test", name: "Sarah" });
    expect(user?.avatar).toBeUndefined();
    // A usable picture from the token fills the empty one.
    await base
      .withIdentity({ ...sarah, pictureUrl: "https://img.clerk.com/sarah.png" })
      .mutation(api.users.ensureUser, {});
    expect((await base.run(async (ctx) => await ctx.db.get("users", id)))?.avatar).toBe(
      "https://img.clerk.com/sarah.png",
    );
  });

  test("signed in but before ensureUser, the viewer is null (the client shows loading)", async () => {
    const t = newTest().withIdentity(sarah);
    expect(await t.query(api.users.viewer, {})).toBeNull();
  });
});

const ada = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };
const vera = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };

/** Ada the admin, Vera a viewer, and sellers Omar and Bea. */
async function setUpPeople() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const people: [string, string, Role][] = [
      [ada.subject, ada.email, "admin"],
      [vera.subject, vera.email, "viewer"],
      ["user_omar", "omar@livelocal.test", "seller"],
      ["user_bea", "bea@livelocal.test", "seller"],
    ];
    const [adaId, veraId, omarId, beaId] = await Promise.all(
      people.map(([clerkId, email, role]) => insertUser(ctx, { clerkId, email, role })),
    );
    return { adaId, veraId, omarId, beaId };
  });
  return { t, ...ids, asAda: t.withIdentity(ada), asVera: t.withIdentity(vera) };
}

async function roleOf(t: ReturnType<typeof newTest>, userId: Id<"users">) {
  return await t.run(async (ctx) => (await ctx.db.get("users", userId))?.role);
}

describe("roles", () => {
  test("an admin makes a viewer a seller and a seller an admin", async () => {
    const { t, asAda, veraId, omarId } = await setUpPeople();
    await asAda.mutation(api.users.setUserRole, { userId: veraId, role: "seller" });
    await asAda.mutation(api.users.setUserRole, { userId: omarId, role: "admin" });
    expect(await roleOf(t, veraId)).toBe("seller");
    expect(await roleOf(t, omarId)).toBe("admin");
  });

  test("a viewer cannot change anyone's role, not even their own", async () => {
    const { t, asVera, veraId } = await setUpPeople();
    await expect(
      asVera.mutation(api.users.setUserRole, { userId: veraId, role: "admin" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await roleOf(t, veraId)).toBe("viewer");
  });

  test("the last admin cannot demote themself; once there is a second admin, they can", async () => {
    const { t, asAda, adaId, omarId } = await setUpPeople();
    await expect(
      asAda.mutation(api.users.setUserRole, { userId: adaId, role: "viewer" }),
    ).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
    expect(await roleOf(t, adaId)).toBe("admin");
    await asAda.mutation(api.users.setUserRole, { userId: omarId, role: "admin" });
    await asAda.mutation(api.users.setUserRole, { userId: adaId, role: "seller" });
    expect(await roleOf(t, adaId)).toBe("seller");
  });

  test("a user who no longer exists cannot be given a role", async () => {
    const { t, asAda, beaId } = await setUpPeople();
    await t.run(async (ctx) => await ctx.db.delete("users", beaId));
    await expect(
      asAda.mutation(api.users.setUserRole, { userId: beaId, role: "admin" }),
    ).rejects.toMatchObject({
      data: { code: "NOT_FOUND" },
    });
  });

  test("admins page through users by email, by role and by email prefix", async () => {
    const { asAda } = await setUpPeople();
    const all = await asAda.query(api.users.listUsers, { paginationOpts: { numItems: 3, cursor: null } });
    expect(all.page.map((user) => user.email)).toEqual([
      "ada@livelocal.test",
      "bea@livelocal.test",
      "omar@livelocal.test",
    ]);
    // Only what the admin console shows: no sign-in id, preferences or privacy data.
    expect(Object.keys(all.page[0]).sort()).toEqual(["_id", "createdAt", "email", "role"]);
    const rest = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 3, cursor: all.continueCursor },
    });
    expect(rest.page.map((user) => user.email)).toEqual(["vera@livelocal.test"]);

    const sellers = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      role: "seller",
    });
    expect(sellers.page.map((user) => user.email)).toEqual(["bea@livelocal.test", "omar@livelocal.test"]);

    const byPrefix = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      emailPrefix: " O",
    });
    expect(byPrefix.page.map((user) => user.email)).toEqual(["omar@livelocal.test"]);

    const sellersByPrefix = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      role: "seller",
      emailPrefix: "b",
    });
    expect(sellersByPrefix.page.map((user) => user.email)).toEqual(["bea@livelocal.test"]);
  });

  test("anyone but an admin gets an empty list of users", async () => {
    const { t, asVera } = await setUpPeople();
    const args = { paginationOpts: { numItems: 10, cursor: null } };
    expect((await asVera.query(api.users.listUsers, args)).page).toEqual([]);
    expect((await t.query(api.users.listUsers, args)).page).toEqual([]);
  });

  test("makeAdmin promotes an existing user by email, whatever its capitalisation", async () => {
    const { t, veraId } = await setUpPeople();
    expect(await t.mutation(internal.users.makeAdmin, { email: "Vera@LiveLocal.test" })).toBe(veraId);
    expect(await roleOf(t, veraId)).toBe("admin");
  });

  test("makeAdmin for an email nobody has says so", async () => {
    const { t } = await setUpPeople();
    const error: unknown = await t
      .mutation(internal.users.makeAdmin, { email: "nobody@livelocal.test" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ data: { code: "NOT_FOUND" } });
    expect((error as { data: { message: string } }).data.message).toMatch(/sign in once first/);
  });
});
