import { Webhook } from "svix";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { LIMITS } from "./lib/validation";
import { insertLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { getUserByClerkId, insertUser, pinnedSignInClaims, tombstoneKey } from "./model/users";
import { newTest } from "./test.setup";

const SECRET = `whsec_${btoa("livelocal-webhook-test-secret-0123")}`;
const SARAH = "user_2sarahClerkId";
type Backend = ReturnType<typeof newTest>;

/** A Clerk user event as Clerk sends it; `email: null` for a user without one. */
function userEvent(
  type: "user.created" | "user.updated",
  overrides: {
    id?: string;
    email?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    imageUrl?: string | null;
    updatedAt?: number;
  } = {},
) {
  const email = overrides.email === undefined ? "sarah@livelocal.test" : overrides.email;
  return {
    type,
    object: "event",
    timestamp: 1_700_000_000_000,
    data: {
      id: overrides.id ?? SARAH,
      object: "user",
      email_addresses: [
        { id: "idn_other", email_address: "old-sarah@livelocal.test" },
        ...(email ? [{ id: "idn_primary", email_address: email }] : []),
      ],
      primary_email_address_id: email ? "idn_primary" : null,
      first_name: overrides.firstName === undefined ? "Sarah" : overrides.firstName,
      last_name: overrides.lastName === undefined ? "Kim" : overrides.lastName,
      image_url: overrides.imageUrl === undefined ? "https://img.clerk.com/sarah.png" : overrides.imageUrl,
      updated_at: overrides.updatedAt ?? 1_000,
    },
  };
}

function deletedEvent(id = SARAH) {
  return { type: "user.deleted", object: "event", data: { id, object: "user", deleted: true } };
}

/** Posts `body` to the webhook signed as Svix signs it (Clerk's deliveries are Svix messages). */
async function deliver(
  t: Backend,
  body: object,
  options: { svixId?: string; sentAt?: Date; secret?: string; headers?: Record<string, string> } = {},
) {
  const payload = JSON.stringify(body);
  const svixId = options.svixId ?? `msg_${crypto.randomUUID()}`;
  const sentAt = options.sentAt ?? new Date();
  const response = await t.fetch("/clerk-users-webhook", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "svix-id": svixId,
      "svix-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "svix-signature": new Webhook(options.secret ?? SECRET).sign(svixId, sentAt, payload),
      ...options.headers,
    },
    body: payload,
  });
  return { status: response.status, text: await response.text() };
}

async function userRow(t: Backend, clerkId = SARAH) {
  return await t.run(async (ctx) => await getUserByClerkId(ctx, clerkId));
}

async function countRows(t: Backend, table: "users" | "webhookDeliveries" | "deletedClerkUsers") {
  return await t.run(async (ctx) => (await ctx.db.query(table).collect()).length);
}

describe("the Clerk webhook", () => {
  beforeEach(() => {
    vi.stubEnv("CLERK_WEBHOOK_SECRET", SECRET);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.useRealTimers();
  });

  test("a signed user.created creates a viewer with the primary email, the full name and the avatar", async () => {
    const t = newTest();
    expect(await deliver(t, userEvent("user.created"))).toEqual({ status: 200, text: "created" });
    expect(await userRow(t)).toMatchObject({
      email: "sarah@livelocal.test",
      name: "Sarah Kim",
      avatar: "https://img.clerk.com/sarah.png",
      role: "viewer",
      clerkUpdatedAt: 1_000,
    });
  });

  test("a user whose email is in ADMIN_EMAILS is created as an admin, as at sign-in", async () => {
    vi.stubEnv("ADMIN_EMAILS", "sarah@livelocal.test");
    const t = newTest();
    await deliver(t, userEvent("user.created"));
    expect(await userRow(t)).toMatchObject({ role: "admin" });
  });

  test("a user with no first or last name gets no name", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created", { firstName: null, lastName: null }));
    const user = await userRow(t);
    expect(user).toMatchObject({ email: "sarah@livelocal.test" });
    expect(user?.name).toBeUndefined();
  });

  test("only a first name is used as it is", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created", { lastName: null }));
    expect(await userRow(t)).toMatchObject({ name: "Sarah" });
  });

  test("a bad signature is refused with 400 and writes nothing", async () => {
    const t = newTest();
    const forged = await deliver(t, userEvent("user.created"), {
      secret: `whsec_${btoa("somebody-else-entirely-0123456789")}`,
    });
    expect(forged).toEqual({ status: 400, text: "invalid signature" });
    const unsigned = await deliver(t, userEvent("user.created"), { headers: { "svix-signature": "" } });
    expect(unsigned.status).toBe(400);
    expect(await countRows(t, "users")).toBe(0);
    expect(await countRows(t, "webhookDeliveries")).toBe(0);
  });

  test("a body changed after signing is refused", async () => {
    const t = newTest();
    const payload = JSON.stringify(userEvent("user.created"));
    const sentAt = new Date();
    const response = await t.fetch("/clerk-users-webhook", {
      method: "POST",
      headers: {
        "svix-id": "msg_tampered",
        "svix-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "svix-signature": new Webhook(SECRET).sign("msg_tampered", sentAt, payload),
      },
      body: payload.replace("sarah@livelocal.test", "mallory@livelocal.test"),
    });
    expect(response.status).toBe(400);
    expect(await countRows(t, "users")).toBe(0);
  });

  test("without CLERK_WEBHOOK_SECRET the endpoint answers 500 and writes nothing", async () => {
    vi.stubEnv("CLERK_WEBHOOK_SECRET", "");
    const t = newTest();
    expect(await deliver(t, userEvent("user.created"))).toEqual({
      status: 500,
      text: "webhook not configured",
    });
    expect(await countRows(t, "users")).toBe(0);
  });

  test("the same delivery twice (same svix-id) takes effect once", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created"), { svixId: "msg_1" });
    const update = userEvent("user.updated", { firstName: "Sally", updatedAt: 2_000 });
    expect(await deliver(t, update, { svixId: "msg_2" })).toMatchObject({ text: "updated" });
    const before = await userRow(t);
    expect(await deliver(t, update, { svixId: "msg_2" })).toEqual({
      status: 200,
      text: "duplicate delivery",
    });
    expect(await userRow(t)).toEqual(before);
    expect(await countRows(t, "webhookDeliveries")).toBe(2);
  });

  test("a delivery signed more than five minutes ago is refused as a replay", async () => {
    const t = newTest();
    const sentAt = new Date(Date.now() - 10 * 60 * 1000);
    expect(await deliver(t, userEvent("user.created"), { sentAt })).toEqual({
      status: 400,
      text: "invalid signature",
    });
    expect(await countRows(t, "users")).toBe(0);
  });

  test("an update that arrives before its create keeps the newer data", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.updated", { firstName: "Sally", updatedAt: 2_000 }));
    expect(await deliver(t, userEvent("user.created", { updatedAt: 1_000 }))).toMatchObject({
      status: 200,
      text: "older than stored",
    });
    expect(await userRow(t)).toMatchObject({ name: "Sally Kim", clerkUpdatedAt: 2_000 });
  });

  test("an update older than the one stored is ignored", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created", { updatedAt: 1_000 }));
    await deliver(t, userEvent("user.updated", { email: "sk@livelocal.test", updatedAt: 3_000 }));
    await deliver(t, userEvent("user.updated", { email: "stale@livelocal.test", updatedAt: 2_000 }));
    expect(await userRow(t)).toMatchObject({ email: "sk@livelocal.test", clerkUpdatedAt: 3_000 });
  });

  test("an update follows Clerk's email, name and avatar but never changes the role", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      await insertUser(ctx, { clerkId: SARAH, email: "sarah@livelocal.test", role: "seller" });
    });
    await deliver(
      t,
      userEvent("user.updated", { email: "sk@livelocal.test", firstName: null, lastName: null }),
    );
    const user = await userRow(t);
    expect(user).toMatchObject({ email: "sk@livelocal.test", role: "seller", clerkUpdatedAt: 1_000 });
    expect(user?.name).toBeUndefined();
  });

  test("an admin's corrected name stands until Clerk's name changes", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created"));
    // The admin's correction, as model/corrections.ts makes it.
    await t.run(async (ctx) => {
      const user = (await getUserByClerkId(ctx, SARAH))!;
      await ctx.db.patch("users", user._id, { name: "Sarah Okafor", ...pinnedSignInClaims(user) });
    });
    await deliver(
      t,
      userEvent("user.updated", { imageUrl: "https://img.clerk.com/new.png", updatedAt: 2_000 }),
    );
    expect(await userRow(t)).toMatchObject({ name: "Sarah Okafor", avatar: "https://img.clerk.com/new.png" });
    await deliver(t, userEvent("user.updated", { lastName: "Park", updatedAt: 3_000 }));
    expect((await userRow(t))?.name).toBe("Sarah Park");
  });

  test("user.deleted removes the user and their shop, and leaves a tombstone", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created"));
    await t.run(async (ctx) => {
      const user = await getUserByClerkId(ctx, SARAH);
      const liveShopId = await insertLiveShop(ctx, { userId: user!._id, liveShopName: "S", slug: "s" });
      await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" });
    });
    expect(await deliver(t, deletedEvent())).toEqual({ status: 200, text: "deleted" });
    expect(await userRow(t)).toBeNull();
    const left = await t.run(async (ctx) => ({
      shops: await ctx.db.query("liveShops").collect(),
      streams: await ctx.db.query("streams").collect(),
      tombstones: await ctx.db.query("deletedClerkUsers").collect(),
    }));
    expect(left.shops).toEqual([]);
    expect(left.streams).toEqual([]);
    expect(left.tombstones).toMatchObject([{ clerkId: await tombstoneKey(SARAH) }]);
  });

  test("a create or update delivered after the delete does not bring the user back", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created"));
    await deliver(t, deletedEvent());
    expect(await deliver(t, userEvent("user.created"))).toMatchObject({ text: "user was deleted" });
    expect(await deliver(t, userEvent("user.updated", { updatedAt: 9_000 }))).toMatchObject({
      text: "user was deleted",
    });
    expect(await userRow(t)).toBeNull();
    expect(await countRows(t, "deletedClerkUsers")).toBe(1);
  });

  test("a delete for a user never created still prevents a late create", async () => {
    const t = newTest();
    expect(await deliver(t, deletedEvent())).toMatchObject({ status: 200, text: "deleted" });
    await deliver(t, userEvent("user.created"));
    expect(await userRow(t)).toBeNull();
  });

  test("a deleted Clerk id cannot sign in again; the same person with a new Clerk id can", async () => {
    const t = newTest();
    await deliver(t, userEvent("user.created"));
    await deliver(t, deletedEvent());
    const identity = { email: "sarah@livelocal.test", name: "Sarah" };
    await expect(
      t.withIdentity({ ...identity, subject: SARAH }).mutation(api.users.ensureUser, {}),
    ).rejects.toMatchObject({ data: { code: "ACCOUNT_DELETED", restartable: false } });
    await t.withIdentity({ ...identity, subject: "user_2newSarah" }).mutation(api.users.ensureUser, {});
    expect(await userRow(t, "user_2newSarah")).toMatchObject({ email: "sarah@livelocal.test" });
  });

  test("a user without an email address is not created until Clerk has one", async () => {
    const t = newTest();
    expect(await deliver(t, userEvent("user.created", { email: null }))).toMatchObject({
      status: 200,
      text: "no email address",
    });
    expect(await userRow(t)).toBeNull();
    await deliver(t, userEvent("user.updated", { updatedAt: 2_000 }));
    expect(await userRow(t)).toMatchObject({ email: "sarah@livelocal.test" });
  });

  test("an email still held by another account answers 409 and writes nothing, so Svix retries", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      await insertUser(ctx, { clerkId: "user_2oldSarah", email: "sarah@livelocal.test" });
    });
    const response = await deliver(t, userEvent("user.created"), { svixId: "msg_retry" });
    expect(response.status).toBe(409);
    expect(await userRow(t)).toBeNull();
    expect(await countRows(t, "webhookDeliveries")).toBe(0);
    await deliver(t, deletedEvent("user_2oldSarah"));
    expect(await deliver(t, userEvent("user.created"), { svixId: "msg_retry" })).toMatchObject({
      status: 200,
      text: "created",
    });
  });

  test("other event types are acknowledged and ignored", async () => {
    const t = newTest();
    expect(await deliver(t, { type: "session.created", object: "event", data: { id: "sess_1" } })).toEqual({
      status: 200,
      text: "ignored",
    });
    expect(await countRows(t, "webhookDeliveries")).toBe(0);
  });

  test("a user event without the documented shape is refused with 400", async () => {
    const t = newTest();
    expect(await deliver(t, { type: "user.created", data: { id: SARAH } })).toEqual({
      status: 400,
      text: "unexpected payload",
    });
  });

  test("a name over the limit is cut; an unusable email or picture is left out, never stored", async () => {
    const t = newTest();
    const created = await deliver(
      t,
      userEvent("user.created", {
        firstName: "S".repeat(5000),
        email: "not-an-email",
        imageUrl: "javascript:alert(1)",
      }),
    );
    // Without a usable email the row waits, as for no email at all.
    expect(created).toEqual({ status: 200, text: "no email address" });
    expect(await userRow(t)).toBeNull();

    await deliver(t, userEvent("user.created", { firstName: "S".repeat(5000), updatedAt: 2_000 }));
    const user = await userRow(t);
    expect(user?.name).toBe("S".repeat(LIMITS.userName));

    // An update keeps the stored email when Clerk's is unusable, and stores no javascript: picture.
    const updated = await deliver(
      t,
      userEvent("user.updated", {
        email: `${"x".repeat(300)}@livelocal.test`,
        firstName: "Sarah",
        lastName: null,
        imageUrl: "javascript:alert(1)",
        updatedAt: 3_000,
      }),
    );
    expect(updated).toEqual({ status: 200, text: "updated" });
    const after = await userRow(t);
    expect(after).toMatchObject({ email: "sarah@livelocal.test", name: "Sarah", clerkUpdatedAt: 3_000 });
    expect(after?.avatar).toBeUndefined();
  });

  test("an id over the limit is refused with 400 and writes nothing", async () => {
    const t = newTest();
    const long = `user_${"x".repeat(5000)}`;
    for (const body of [userEvent("user.created", { id: long }), deletedEvent(long)]) {
      expect(await deliver(t, body)).toEqual({ status: 400, text: "unexpected payload" });
    }
    expect(await countRows(t, "users")).toBe(0);
    expect(await countRows(t, "webhookDeliveries")).toBe(0);
    expect(await countRows(t, "deletedClerkUsers")).toBe(0);
  });

  test("deliveries older than a week are forgotten as new ones arrive", async () => {
    vi.useFakeTimers();
    const t = newTest();
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    await deliver(t, userEvent("user.created"), { svixId: "msg_old" });
    vi.setSystemTime(new Date("2030-01-09T00:00:00Z"));
    await deliver(t, userEvent("user.updated", { updatedAt: 2_000 }), { svixId: "msg_new" });
    const ids = await t.run(async (ctx) =>
      (await ctx.db.query("webhookDeliveries").collect()).map((delivery) => delivery.svixId),
    );
    expect(ids).toEqual(["msg_new"]);
  });
});
