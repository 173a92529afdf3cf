import { useMutation, useQuery } from "convex/react";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorMessage } from "@/lib/errors";
import { parseRole, ROLE_LABELS } from "@/lib/roles";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { ROLES, type Role } from "@convex/lib/constants";
import { roleChangeQuestion } from "./role-change-question";

export type RoleSelectUser = { _id: Id<"users">; email: string; name?: string; role: Role };

const NO_SHOPS = { shops: [], more: false };

/**
 * A user's role, changeable in place. Every change asks first, saying what the role means and naming
 * the shops the person owns with what happens to them (decision 025). Shows the chosen role while the
 * server applies it, then the server's; a refusal (the last admin, say) is put into words beside it.
 */
export function UserRoleSelect({ user, isYou }: { user: RoleSelectUser; isYou: boolean }) {
  const setUserRole = useMutation(api.users.setUserRole);
  const [asking, setAsking] = useState<Role | null>(null);
  const [pending, setPending] = useState<Role | null>(null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  // Read only while a change is being asked about; null (not an admin) reads as no shops.
  const owned = useQuery(api.admin.listUserShops, asking ? { userId: user._id } : "skip");

  async function apply(role: Role) {
    setAsking(null);
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

  const question =
    asking && owned !== undefined && roleChangeQuestion(user, asking, isYou, owned ?? NO_SHOPS);

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
            if (role && role !== user.role) setAsking(role);
          }}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-primary-600 disabled:opacity-60 aria-invalid:border-red-500 dark:border-slate-700 dark:bg-slate-900"
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        {(pending || (asking && owned === undefined)) && (
          <span role="status" className="text-xs text-slate-500 dark:text-slate-400">
            {pending ? "Saving…" : "Checking their shops…"}
          </span>
        )}
      </div>
      {question && (
        <ConfirmDialog
          open
          {...question}
          onConfirm={() => void apply(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
      {error && (
        <p id={errorId} role="alert" className="max-w-xs text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
