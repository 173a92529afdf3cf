/**
 * The local inbox (decision 036): on the embedded backend with no RESEND_API_KEY, every e-mail is
 * caught here instead of sent, and /dev/inbox shows it. A person reads the mail sent to them, an
 * admin everyone's: `npm start` may serve a whole town from the local backend, and nobody reads
 * another person's mail (or their unsubscribe links). A deployment answers null.
 */
import { v } from "convex/values";
import { query } from "./functions";
import { localBackendMode, resendApiKey } from "./model/env";
import { emailFields } from "./schema";

/** The newest e-mails shown. */
export const LOCAL_INBOX_LIMIT = 50;

const inboxEmailValidator = v.object({ _id: v.id("localInbox"), ...emailFields, createdAt: v.number() });

export const list = query({
  args: {},
  returns: v.union(
    v.null(),
    v.object({
      /** Whose mail: the caller's, everyone's (an admin), or none until someone signs in. */
      scope: v.union(v.literal("mine"), v.literal("everyone"), v.literal("signedOut")),
      mail: v.array(inboxEmailValidator),
    }),
  ),
  handler: async (ctx) => {
    if (!localBackendMode() || resendApiKey()) return null;
    const viewer = ctx.viewer;
    if (!viewer) return { scope: "signedOut" as const, mail: [] };
    const everyone = viewer.role === "admin";
    const rows = everyone
      ? await ctx.db.query("localInbox").withIndex("by_createdAt").order("desc").take(LOCAL_INBOX_LIMIT)
      : await ctx.db
          .query("localInbox")
          .withIndex("by_userId_and_createdAt", (q) => q.eq("userId", viewer._id))
          .order("desc")
          .take(LOCAL_INBOX_LIMIT);
    return {
      scope: everyone ? ("everyone" as const) : ("mine" as const),
      mail: rows.map(({ _id, from, to, subject, html, text, headers, createdAt }) => ({
        _id,
        from,
        to,
        subject,
        html,
        text,
        headers,
        createdAt,
      })),
    };
  },
});
