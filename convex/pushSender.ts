"use node";
/**
 * Sends a notice's push to each of its person's devices with the `web-push` library (Node: it encrypts
 * with node:crypto, RFC 8291 aes128gcm, and signs VAPID, RFC 8292). The request is sent with fetch, so
 * any push service answers, a local test endpoint included; 404 and 410 mean the subscription is gone.
 */
import { v } from "convex/values";
import webpush from "web-push";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalAction } from "./_generated/server";
import { vapidKeys } from "./model/env";

/** Seconds a push service keeps an undelivered push (a go-live is stale after a few hours). */
const PUSH_TTL_SECONDS = 4 * 60 * 60;

export const send = internalAction({
  args: { notificationId: v.id("notifications") },
  returns: v.null(),
  handler: async (ctx, { notificationId }) => {
    const keys = vapidKeys();
    if (!keys) return null;
    const job = await ctx.runQuery(internal.push.pushJob, { notificationId });
    if (!job || job.devices.length === 0) return null;
    const delivered: Id<"pushSubscriptions">[] = [];
    const gone: Id<"pushSubscriptions">[] = [];
    for (const device of job.devices) {
      const request = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        job.payload,
        { vapidDetails: keys, TTL: PUSH_TTL_SECONDS, contentEncoding: "aes128gcm", urgency: "high" },
      );
      try {
        const response = await fetch(request.endpoint, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: new Uint8Array(request.body),
        });
        if (response.status === 404 || response.status === 410) gone.push(device._id);
        else if (response.ok) delivered.push(device._id);
        else console.warn(`Push service answered ${response.status} for ${new URL(device.endpoint).origin}`);
      } catch (error) {
        console.warn(`Push to ${new URL(device.endpoint).origin} failed: ${String(error)}`);
      }
    }
    await ctx.runMutation(internal.push.recordPushResults, { delivered, gone });
    return null;
  },
});
