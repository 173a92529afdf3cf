import { useId } from "react";
import { Icon } from "@/components/ui/icon";
import { ROLE_LABELS } from "@/lib/roles";
import type { Role } from "@convex/lib/constants";
import { DEMO_SHOPS, DEMO_USERS, type DemoUser } from "@convex/lib/data/demo";
import type { LocalIdentity } from "./local-auth";

const GROUPS: { role: Role; title: string; icon: string }[] = [
  { role: "admin", title: "Admin", icon: "lucide:shield-check" },
  { role: "seller", title: "Sellers", icon: "lucide:store" },
  { role: "viewer", title: "Viewer", icon: "lucide:eye" },
];

/** The identity that signs in as a seeded demo user: `sub` is the seeded row's clerkId, so it is found. */
export function demoIdentity(user: DemoUser): LocalIdentity {
  return {
    sub: user.clerkId,
    email: user.email,
    name: user.name,
    ...(user.avatar && { picture: user.avatar }),
  };
}

function shopNames(user: DemoUser): string[] {
  return DEMO_SHOPS.filter((shop) => shop.ownerKey === user.key).map((shop) => shop.liveShopName);
}

type DemoAccountsProps = { busy: boolean; onSignIn: (identity: LocalIdentity) => void };

/** The seeded demo users, grouped by role, each one click from signing in. */
export function DemoAccounts({ busy, onSignIn }: DemoAccountsProps) {
  return (
    <div className="space-y-8">
      {GROUPS.map((group) => (
        <section key={group.role} aria-labelledby={`demo-${group.role}`}>
          <h3
            id={`demo-${group.role}`}
            className="flex items-center gap-2 text-sm font-semibold text-slate-500 uppercase dark:text-slate-400"
          >
            <Icon name={group.icon} className="size-4" />
            {group.title}
          </h3>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {DEMO_USERS.filter((user) => user.role === group.role).map((user) => (
              <li key={user.key}>
                <DemoAccountButton user={user} disabled={busy} onClick={() => onSignIn(demoIdentity(user))} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function DemoAccountButton({
  user,
  disabled,
  onClick,
}: {
  user: DemoUser;
  disabled: boolean;
  onClick: () => void;
}) {
  const emailId = useId();
  const roleId = useId();
  const shops = shopNames(user);
  // WCAG 2.5.3: the button holds only its name; the email and role beside it describe it. Its ::after
  // covers the card, so the whole card is still one click.
  return (
    <div className="relative flex h-full w-full flex-col items-start rounded-xl border border-slate-200 p-4 text-left transition-colors hover:border-primary-500 hover:bg-primary-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-600 has-[:disabled]:opacity-50 dark:border-slate-800 dark:hover:bg-primary-900/30">
      <button
        type="button"
        disabled={disabled}
        onClick={onClick}
        // Two ids, so the email and the role are read as separate phrases.
        aria-describedby={`${emailId} ${roleId}`}
        className="text-left text-slate-600 outline-none after:absolute after:inset-0 after:rounded-xl dark:text-slate-300"
      >
        Sign in as <strong className="font-semibold text-slate-900 dark:text-white">{user.name}</strong>
      </button>
      <span className="mt-1 flex flex-col text-sm text-slate-600 dark:text-slate-300">
        <span id={emailId} className="break-all">
          {user.email}
        </span>
        <span id={roleId}>
          {ROLE_LABELS[user.role]}
          {shops.length > 0 && ` · ${shops.join(", ")}`}
        </span>
      </span>
    </div>
  );
}
