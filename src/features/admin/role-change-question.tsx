import type { FunctionReturnType } from "convex/server";
import type { ReactNode } from "react";
import { SHOP_STATUS_LABELS } from "@/components/shops/shop-status-badge";
import type { ConfirmOptions } from "@/components/ui/use-confirm";
import type { api } from "@convex/_generated/api";
import type { Role } from "@convex/lib/constants";
import { mayRunShops } from "@convex/lib/lifecycle";

export type OwnedShops = NonNullable<FunctionReturnType<typeof api.admin.listUserShops>>;

type Person = { email: string; name?: string; role: Role };

const ROLE_WORDS: Record<Role, string> = { viewer: "a viewer", seller: "a seller", admin: "an admin" };

/** What the new role lets the person do, or what they lose. */
function roleSentence(from: Role, to: Role, isYou: boolean): string {
  if (from === "admin") {
    return isYou
      ? `You will become ${ROLE_WORDS[to]} and lose access to this page at once.`
      : `They will become ${ROLE_WORDS[to]} and lose access to the admin screens.`;
  }
  if (to === "admin")
    return "Admins moderate every shop and stream, answer privacy requests and change roles.";
  if (to === "seller") return "Sellers open live shops and run their own shows.";
  return "Viewers save shows and follow shops, but cannot run shops.";
}

function ShopList({ owned }: { owned: OwnedShops }) {
  return (
    <ul className="mt-2 max-h-40 list-disc space-y-1 overflow-y-auto pl-5">
      {owned.shops.map((shop) => (
        <li key={shop._id} className="[overflow-wrap:anywhere]">
          <span className="font-medium text-slate-900 dark:text-slate-100">{shop.liveShopName}</span> (
          {SHOP_STATUS_LABELS[shop.status].toLowerCase()}
          {shop.liveNow && ", a show is live now"})
        </li>
      ))}
      {owned.more && <li>and more</li>}
    </ul>
  );
}

/**
 * What happens to the shops they own (decision 025): a viewer's leave public pages, kept as they are,
 * and come back when they may run shops again.
 */
function shopsSentence(from: Role, to: Role, owned: OwnedShops, who: string, isYou: boolean): ReactNode {
  const count = owned.shops.length;
  const they = isYou ? "you" : "they";
  if (count === 0) {
    return to === "viewer"
      ? `${isYou ? "You own" : "They own"} no live shop. Opening one would make ${isYou ? "you" : "them"} a seller again, as a viewer's first shop does; the activity log shows it.`
      : null;
  }
  const shops = owned.more
    ? `more than ${count} live shops`
    : count === 1
      ? "1 live shop"
      : `${count} live shops`;
  return (
    <>
      <p>
        {isYou ? "You own" : `${who} owns`} {shops}:
      </p>
      <ShopList owned={owned} />
      {mayRunShops(from) && !mayRunShops(to) && (
        <p className="mt-2">
          As a viewer {they} cannot change them. The shops and every show in them leave public pages at once,
          a live show included; nothing is deleted or closed, and they come back as they are when {they} are
          made a seller again.
        </p>
      )}
      {!mayRunShops(from) && mayRunShops(to) && (
        <p className="mt-2">
          Hidden while {they} were a viewer, the shops come back to public pages as their status allows, and{" "}
          {they} can manage them again.
        </p>
      )}
    </>
  );
}

/** The question an admin answers before any role change: what the role means and what it does to the person's shops. */
export function roleChangeQuestion(
  user: Person,
  to: Role,
  isYou: boolean,
  owned: OwnedShops,
): ConfirmOptions {
  const from = user.role;
  const who = user.name ?? user.email;
  const losesShops = !mayRunShops(to) && owned.shops.length > 0;
  const removesAdmin = from === "admin";
  return {
    title: removesAdmin
      ? isYou
        ? "Remove your own admin rights?"
        : `Remove admin rights from ${user.email}?`
      : `Make ${who} ${ROLE_WORDS[to]}?`,
    description: (
      <div className="space-y-2">
        <p>{roleSentence(from, to, isYou)}</p>
        {shopsSentence(from, to, owned, who, isYou)}
        <p>The change is recorded in the activity log.</p>
      </div>
    ),
    confirmLabel: removesAdmin ? "Remove admin rights" : `Make ${ROLE_WORDS[to]}`,
    destructive: removesAdmin || losesShops,
  };
}
