import { useMutation } from "convex/react";
import { Button } from "@/components/ui/button";
import type { ConfirmOptions } from "@/components/ui/use-confirm";
import { useReasonedAction } from "@/components/ui/use-reasoned-action";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ShopStatus } from "@convex/lib/constants";
import { allowedShopTransitions, type Actor, type ShopAction } from "@convex/lib/lifecycle";

/** The console acts as a moderator: an admin who does not own the shop. */
export const MODERATOR: Actor = { isOwner: false, isAdmin: true };

export type ModeratedShop = { _id: Id<"liveShops">; liveShopName: string; status: ShopStatus };

/** A page-level message after an action: the row it came from may leave the list at once. */
export type Notice = { tone: "success" | "error"; text: string };

/** The admin's lifecycle moves (docs/product.md#live-shop-lifecycle); the owner's are not offered here. */
const ADMIN_SHOP_ACTIONS: ReadonlySet<ShopAction> = new Set(["approve", "reject", "suspend", "reinstate"]);

function question(action: ShopAction, name: string): ConfirmOptions | null {
  if (action === "approve")
    return {
      title: `Approve ${name}?`,
      description: "It will be shown on LiveLocal, and its owner can take streams live.",
      confirmLabel: "Approve shop",
    };
  if (action === "reinstate")
    return {
      title: `Reinstate ${name}?`,
      description: "It will be shown on LiveLocal again, and the suspension reason is cleared.",
      confirmLabel: "Reinstate shop",
    };
  return null;
}

function reasonQuestion(action: ShopAction, name: string) {
  return action === "reject"
    ? {
        title: `Reject ${name}?`,
        description: "It goes back to a draft. Its owner sees your reason, fixes the shop and submits again.",
        confirmLabel: "Reject shop",
      }
    : {
        title: `Suspend ${name}?`,
        description:
          "It and its streams leave LiveLocal until an admin reinstates it. Its owner sees your reason.",
        confirmLabel: "Suspend shop",
      };
}

const DONE: Partial<Record<ShopAction, string>> = {
  approve: "is approved and now active",
  reject: "is rejected; its owner sees your reason",
  suspend: "is suspended",
  reinstate: "is reinstated",
};

/** Approve, reject (with a reason), suspend (with a reason) or reinstate, as the shop's status allows. */
export function ShopModerationActions({
  shop,
  onNotice,
}: {
  shop: ModeratedShop;
  onNotice: (notice: Notice) => void;
}) {
  const setShopStatus = useMutation(api.liveShops.setShopStatus);
  const moderation = useReasonedAction<{ to: ShopStatus; action: ShopAction }>({
    run: ({ to }, reason) =>
      setShopStatus({ liveShopId: shop._id, status: to, ...(reason !== undefined && { reason }) }),
    reasonQuestion: ({ action }) => ({
      ...reasonQuestion(action, shop.liveShopName),
      reasonLabel: "Reason, shown to the shop's owner",
    }),
    onDone: ({ action }) =>
      onNotice({ tone: "success", text: `${shop.liveShopName} ${DONE[action] ?? "is updated"}.` }),
    onError: (_move, text) => onNotice({ tone: "error", text }),
  });
  const transitions = allowedShopTransitions(shop.status, MODERATOR).filter((transition) =>
    ADMIN_SHOP_ACTIONS.has(transition.action),
  );
  if (transitions.length === 0) return null;

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={`Decide on ${shop.liveShopName}`}>
      {transitions.map(({ to, action, label, needsReason }) => (
        <Button
          key={to}
          size="sm"
          variant={action === "approve" || action === "reinstate" ? "primary" : "outline"}
          disabled={moderation.pending}
          onClick={() =>
            needsReason
              ? moderation.askReason({ to, action })
              : void moderation.perform({ to, action }, question(action, shop.liveShopName))
          }
        >
          {needsReason ? `${label}…` : label}
        </Button>
      ))}
      {moderation.dialogs}
    </div>
  );
}
