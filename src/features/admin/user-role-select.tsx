import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { useConfirm, type ConfirmOptions } from "@/components/ui/use-confirm";
import { errorMessage } from "@/lib/errors";
import { parseRole, ROLE_LABELS } from "@/lib/roles";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { ROLES, type Role } from "@convex/lib/constants";

export type RoleSelectUser = { _id: Id<"users">; email: string; role: Role };

/** Losing admin rights is the one change that can lock someone out, so it asks first. */
function demotionQuestion(user: RoleSelectUser, role: Role, isYou: boolean): ConfirmOptions {
  const to = ROLE_LABELS[role].toLowerCase();
  return {
    title: isYou ? "Remove your own admin rights?" : `Remove admin rights from ${user.email}?`,
    description: isYou
      ? `You will become a ${to} and lose access to this page at once.`
      : `They will become a ${to} and lose access to the admin screens.`,
    confirmLabel: "Remove admin rights",
    destructive: true,
  };
}

/**
 * A user's role, changeable in place. Shows the chosen role while the server applies it, then the
 * server's; a refusal (the last admin, say) is put into words beside it.
 */
export function UserRoleSelect({ user, isYou }: { user: RoleSelectUser; isYou: boolean }) {
  const setUserRole = useMutation(api.users.setUserRole);
  const [pending, setPending] = useState<Role | null>(null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const [confirm, confirmDialog] = useConfirm();

  async function change(role: Role) {
    if (role === user.role) return;
    if (user.role === "admin" && !(await confirm(demotionQuestion(user, role, isYou)))) return;
    setPending(role);
    setError(null);
    try {
      await setUserRole({ userId: user._id, role });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <select
          aria-label={`Role of ${user.email}`}
          value={pending ?? user.role}
          disabled={pending !== null}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            const role = parseRole(event.target.value);
            if (role) void change(role);
          }}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-primary-600 disabled:opacity-60 aria-invalid:border-red-500 dark:border-slate-700 dark:bg-slate-900"
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        {pending && (
          <span role="status" className="text-xs text-slate-500 dark:text-slate-400">
            Saving…
          </span>
        )}
      </div>
      {confirmDialog}
      {error && (
        <p id={errorId} role="alert" className="max-w-xs text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
