import { useMutation } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/use-confirm";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { Doc } from "@convex/_generated/dataModel";
import type { ShopStatus } from "@convex/lib/constants";
import {
  allowedShopTransitions,
  describeShopRequirements,
  MAX_STATUS_REASON_LENGTH,
  missingShopRequirements,
  type Actor,
  type ShopAction,
} from "@convex/lib/lifecycle";
import { SHOP_ACTION_CONFIRMATIONS, SHOP_ACTION_DONE, SHOP_STATUS_WORDS } from "./shop-status-words";

type Props = {
  shop: Doc<"liveShops"> & { categories: unknown[]; cbsaCodes: string[] };
  /** The owner's actions; an admin moderating (docs/product.md#roles) also gets the moderation moves. */
  actor: Actor;
  /** Unsaved edits: an action works on the saved shop, so it waits for a save. */
  dirty: boolean;
};

/** The lifecycle actions this person may take from the shop's status (product.md#live-shop-lifecycle). */
export function ShopLifecycleActions({ shop, actor, dirty }: Props) {
  const setShopStatus = useMutation(api.liveShops.setShopStatus);
  const [confirm, dialog] = useConfirm();
  const [pending, setPending] = useState(false);
  // Said about the shop as the action left it: once its status moves anywhere else (an admin approves,
  // rejects, suspends or reinstates), the sentence is stale and goes.
  const [message, setMessage] = useState<{
    tone: "error" | "success";
    text: string;
    status: ShopStatus;
  } | null>(null);
  const [seenStatus, setSeenStatus] = useState(shop.status);
  if (seenStatus !== shop.status) {
    setSeenStatus(shop.status);
    if (message && message.status !== shop.status) setMessage(null);
  }
  const [reason, setReason] = useState("");
  const transitions = allowedShopTransitions(shop.status, actor);
  const asksReason = transitions.some((transition) => transition.needsReason);
  const missing = missingShopRequirements({
    ...shop,
    categoryCount: shop.categories.length,
    msaCount: shop.cbsaCodes.length,
  });

  async function act(to: ShopStatus, action: ShopAction) {
    const question = SHOP_ACTION_CONFIRMATIONS[action];
    if (question && !(await confirm(question))) return;
    setPending(true);
    setMessage(null);
    try {
      const needsReason = transitions.find((transition) => transition.to === to)?.needsReason ?? false;
      await setShopStatus({ liveShopId: shop._id, status: to, ...(needsReason && { reason }) });
      setReason("");
      setMessage({ tone: "success", text: SHOP_ACTION_DONE[action], status: to });
    } catch (caught) {
      setMessage({ tone: "error", text: errorMessage(caught), status: shop.status });
    } finally {
      setPending(false);
    }
  }

  return (
    <section
      aria-label="Shop status"
      className="mb-6 space-y-3 rounded-2xl bg-slate-50 p-4 sm:p-6 dark:bg-slate-900"
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">{SHOP_STATUS_WORDS[shop.status]}</p>
      {shop.status === "draft" && missing.length > 0 && (
        <p className="text-sm text-amber-800 dark:text-amber-200">
          Before you can submit it, add {describeShopRequirements(missing)}.
        </p>
      )}
      {asksReason && (
        <TextField
          label="Reason, shown to the shop's owner"
          name="statusReason"
          value={reason}
          onChange={setReason}
          max={MAX_STATUS_REASON_LENGTH}
          multiline
          rows={2}
          hint="Needed to reject or suspend."
        />
      )}
      {transitions.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          {transitions.map(({ to, action, label, needsReason }) => (
            <Button
              key={to}
              size="sm"
              variant={action === "submit" || action === "endTemporaryClosure" ? "primary" : "outline"}
              disabled={
                pending ||
                dirty ||
                (action === "submit" && missing.length > 0) ||
                (needsReason && reason.trim() === "")
              }
              onClick={() => void act(to, action)}
            >
              {label}
            </Button>
          ))}
          {dirty && (
            <span className="text-sm text-slate-500 dark:text-slate-400">Save your changes first.</span>
          )}
        </div>
      )}
      {message && <FormAlert tone={message.tone} message={message.text} />}
      {dialog}
    </section>
  );
}
