/**
 * The local inbox (decision 036): on the embedded backend with no RESEND_API_KEY, every e-mail is
 * caught here instead of sent, and /dev/inbox shows it. A deployment answers nothing, so no one reads
 * another person's mail there.
 */
import { v } from "convex/values";
import { publicQuery } from "./functions";
import { localBackendMode, resendApiKey } from "./model/env";
import { emailFields } from "./schema";

/** The newest e-mails shown. */
export const LOCAL_INBOX_LIMIT = 50;

export const list = publicQuery({
  args: {},
  returns: v.union(
    v.null(),
    v.array(v.object({ _id: v.id("localInbox"), ...emailFields, createdAt: v.number() })),
  ),
  handler: async (ctx) => {
    if (!localBackendMode() || resendApiKey()) return null;
    const mail = await ctx.db
      .query("localInbox")
      .withIndex("by_createdAt")
      .order("desc")
      .take(LOCAL_INBOX_LIMIT);
    return mail.map(({ _id, from, to, subject, html, text, headers, createdAt }) => ({
      _id,
      from,
      to,
      subject,
      html,
      text,
      headers,
      createdAt,
    }));
  },
});
