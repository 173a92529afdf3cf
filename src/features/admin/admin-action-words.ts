import type { AdminAction } from "@convex/lib/constants";

/** What the activity log says an admin did, between the admin's name and the target's ("Avery Chen approved the shop Sarah's Vintage"). */
export const ADMIN_ACTION_WORDS: Record<AdminAction, string> = {
  approve_shop: "approved the shop",
  reject_shop: "rejected the shop",
  suspend_shop: "suspended the shop",
  reinstate_shop: "reinstated the shop",
  edit_shop: "edited the shop",
  edit_stream: "edited the stream",
  end_stream: "ended the stream",
  pause_stream: "paused the stream",
  cancel_stream: "cancelled the stream",
  delete_stream: "deleted the draft stream",
  change_role: "changed the role of",
  approve_privacy_request: "approved the privacy request",
  reject_privacy_request: "rejected the privacy request",
  lift_restriction: "lifted the restriction of",
  correct_personal_data: "corrected personal data for the privacy request",
};

/** Actions that stop or hide something a seller runs: the log marks them so they stand out. */
export const SEVERE_ADMIN_ACTIONS: ReadonlySet<AdminAction> = new Set([
  "reject_shop",
  "suspend_shop",
  "end_stream",
  "cancel_stream",
  "delete_stream",
  "reject_privacy_request",
]);
