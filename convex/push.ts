/**
 * Web Push devices (decision 036): a browser's subscription is registered by its person, listed in
 * settings and removed there, or dropped when its push service says it is gone (404/410). Sending is
 * the Node action of pushSender.ts.
 */
import { v } from "convex/values";
import { internalQuery } from "./_generated/server";
import { internalMutation, mutation, publicQuery, query } from "./functions";
import { PUSH_SUBSCRIPTIONS_PER_USER } from "./lib/constants";
import { localBackendMode, vapidKeys } from "./model/env";
import { appError } from "./model/errors";
import { recordDeliveries, removeOwnDevice } from "./model/pushDevices";
import { insertWithTimestamps, patchWithTimestamps } from "./model/timestamps";

/** The VAPID public key browsers subscribe with, or null when push is not set up on this deployment. */
export const publicKey = publicQuery({
  args: {},
  returns: v.union(v.string(), v.null()),
  handler: async () => await Promise.resolve(vapidKeys()?.publicKey ?? null),
});

/** The caller's devices, oldest first. */
export const myDevices = query({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("pushSubscriptions"),
      label: v.string(),
      endpointOrigin: v.string(),
      createdAt: v.number(),
      lastSuccessAt: v.optional(v.number()),
    }),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const viewerId = ctx.viewer._id;
    const rows = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", viewerId))
      .take(PUSH_SUBSCRIPTIONS_PER_USER);
    return rows.map(({ _id, label, endpoint, createdAt, lastSuccessAt }) => ({
      _id,
      label,
      endpointOrigin: URL.canParse(endpoint) ? new URL(endpoint).origin : endpoint,
      createdAt,
      lastSuccessAt,
    }));
  },
});

/**
 * Push services speak https, and the sender posts to whatever address is registered, so a deployment
 * takes https only; the local backend also takes http, for a push endpoint on this machine (the
 * end-to-end test's, since no real push service is reachable there).
 */
function isPushEndpoint(endpoint: string): boolean {
  return (localBackendMode() ? /^https?:\/\/\S{1,2000}$/ : /^https:\/\/\S{1,2000}$/).test(endpoint);
}
const BASE64URL = /^[A-Za-z0-9_-]{8,200}$/;

/** Registers this browser for the caller (the same endpoint again updates its keys and owner). */
export const registerDevice = mutation({
  args: { endpoint: v.string(), p256dh: v.string(), auth: v.string(), label: v.string() },
  returns: v.id("pushSubscriptions"),
  handler: async (ctx, { endpoint, p256dh, auth, label }) => {
    if (!isPushEndpoint(endpoint) || !BASE64URL.test(p256dh) || !BASE64URL.test(auth)) {
      throw appError("INVALID_ARGUMENT", "This browser's push subscription could not be read.");
    }
    const name = label.trim().slice(0, 80) || "This browser";
    const existing = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_endpoint", (q) => q.eq("endpoint", endpoint))
      .first();
    if (existing) {
      await patchWithTimestamps(ctx, "pushSubscriptions", existing._id, {
        userId: ctx.viewer._id,
        p256dh,
        auth,
        label: name,
      });
      return existing._id;
    }
    const mine = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", ctx.viewer._id))
      .take(PUSH_SUBSCRIPTIONS_PER_USER);
    if (mine.length >= PUSH_SUBSCRIPTIONS_PER_USER) {
      throw appError(
        "LIMIT_EXCEEDED",
        `You can get pushes on at most ${PUSH_SUBSCRIPTIONS_PER_USER} devices. Remove one first.`,
      );
    }
    return await insertWithTimestamps(ctx, "pushSubscriptions", {
      userId: ctx.viewer._id,
      endpoint,
      p256dh,
      auth,
      label: name,
    });
  },
});

/** Removes one of the caller's devices. */
export const removeDevice = mutation({
  args: { deviceId: v.id("pushSubscriptions") },
  returns: v.null(),
  handler: async (ctx, { deviceId }) => {
    await removeOwnDevice(ctx, ctx.viewer._id, deviceId);
    return null;
  },
});

/** What a push carries and where: the notice and the person's devices (for pushSender.send). */
export const pushJob = internalQuery({
  args: { notificationId: v.id("notifications") },
  returns: v.union(
    v.null(),
    v.object({
      payload: v.string(),
      devices: v.array(
        v.object({
          _id: v.id("pushSubscriptions"),
          endpoint: v.string(),
          p256dh: v.string(),
          auth: v.string(),
        }),
      ),
    }),
  ),
  handler: async (ctx, { notificationId }) => {
    const notice = await ctx.db.get("notifications", notificationId);
    if (!notice) return null;
    const user = await ctx.db.get("users", notice.userId);
    if (!user || user.restrictedAt !== undefined) return null;
    const devices = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_userId", (q) => q.eq("userId", notice.userId))
      .take(PUSH_SUBSCRIPTIONS_PER_USER);
    const payload = JSON.stringify({
      title: notice.title,
      body: notice.body,
      path: notice.path,
      tag: notice.eventKey,
    });
    return {
      payload,
      devices: devices.map(({ _id, endpoint, p256dh, auth }) => ({ _id, endpoint, p256dh, auth })),
    };
  },
});

/** After a send: devices whose push service said 404/410 are dropped, the others marked as reached. */
export const recordPushResults = internalMutation({
  args: { delivered: v.array(v.id("pushSubscriptions")), gone: v.array(v.id("pushSubscriptions")) },
  returns: v.null(),
  handler: async (ctx, { delivered, gone }) => {
    await recordDeliveries(ctx, { delivered, gone });
    return null;
  },
});
