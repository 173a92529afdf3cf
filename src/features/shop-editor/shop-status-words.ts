import type { ConfirmOptions } from "@/components/ui/use-confirm";
import type { ShopStatus } from "@convex/lib/constants";
import type { ShopAction } from "@convex/lib/lifecycle";

/** What each status means for the owner, in a sentence. */
export const SHOP_STATUS_WORDS: Record<ShopStatus, string> = {
  draft: "A draft: only you can see it. Submit it for verification when it is ready.",
  pending_verification: "Waiting for an admin to verify it. You can keep editing meanwhile.",
  active: "Active: shown on LiveLocal, and its streams can go live.",
  maintenance: "Temporarily closed: its page shows a notice and its streams are off the public lists.",
  suspended: "Suspended by an admin: hidden from LiveLocal until an admin reinstates it.",
  inactive: "Closed: hidden from LiveLocal. Reopen it to start again as a draft.",
};

/** Closing cannot easily be undone (a reopened shop is verified again), so it asks first. */
export const SHOP_ACTION_CONFIRMATIONS: Partial<Record<ShopAction, ConfirmOptions>> = {
  close: {
    title: "Close this shop?",
    description:
      "It disappears from LiveLocal with its streams. You can reopen it later, but it will need to be verified again.",
    confirmLabel: "Close shop",
    cancelLabel: "Keep it open",
    destructive: true,
  },
};

/** Said after each action succeeds. */
export const SHOP_ACTION_DONE: Record<ShopAction, string> = {
  submit: "Submitted. An admin will verify your shop soon.",
  closeTemporarily: "Your shop is temporarily closed.",
  endTemporaryClosure: "Your shop is open again.",
  close: "Your shop is closed.",
  reopen: "Your shop is a draft again: submit it for verification when it is ready.",
  approve: "Approved.",
  reject: "Rejected.",
  suspend: "Suspended.",
  reinstate: "Reinstated.",
};
