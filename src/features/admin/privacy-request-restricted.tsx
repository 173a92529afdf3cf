import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/use-confirm";
import { DateText } from "@/components/privacy/privacy-status";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";

type RestrictedUser = FunctionReturnType<typeof api.privacy.listRestrictedUsers>[number];

/** Accounts whose processing is restricted (their shops and streams off public pages), with a way back. */
export function PrivacyRestrictedAccounts({ onLifted }: { onLifted: (message: string) => void }) {
  const users = useQuery(api.privacy.listRestrictedUsers, {});
  return (
    <section aria-labelledby="restricted-heading" className="mt-12">
      <h2 id="restricted-heading" className="text-xl font-semibold tracking-tight">
        Restricted accounts
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Their shops and streams are hidden from public pages until the restriction is lifted.
      </p>
      {users === undefined ? (
        <p role="status" className="mt-4 text-sm text-slate-500 dark:text-slate-400">
          Loading restricted accounts…
        </p>
      ) : users.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-slate-300 p-6 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          No account is restricted.
        </p>
      ) : (
        <ul
          aria-label="Restricted accounts"
          className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {users.map((user) => (
            <RestrictedRow key={user._id} user={user} onLifted={onLifted} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RestrictedRow({ user, onLifted }: { user: RestrictedUser; onLifted: (message: string) => void }) {
  const liftRestriction = useMutation(api.privacy.liftRestriction);
  const [confirm, dialog] = useConfirm();
  const [lifting, setLifting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const who = user.name ?? user.email;

  async function lift() {
    const sure = await confirm({
      title: `Lift the restriction on ${who}?`,
      description: "Their active shops and streams appear on public pages again.",
      confirmLabel: "Lift restriction",
    });
    if (!sure) return;
    setLifting(true);
    setError(null);
    try {
      await liftRestriction({ userId: user._id });
      onLifted(`The restriction on ${who} is lifted.`);
    } catch (caught) {
      setError(errorMessage(caught));
      setLifting(false);
    }
  }

  return (
    <li className="flex flex-col gap-3 p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere]">{user.name ?? user.email}</p>
        {user.name && (
          <p className="text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">{user.email}</p>
        )}
        <p className="text-slate-500 dark:text-slate-400">
          Restricted since <DateText at={user.restrictedAt} withTime />
        </p>
        {error && (
          <div className="mt-2">
            <FormAlert message={error} />
          </div>
        )}
      </div>
      <Button
        size="sm"
        variant="outline"
        className="self-start sm:self-center"
        disabled={lifting}
        aria-label={`Lift restriction on ${user.email}`}
        onClick={() => void lift()}
      >
        {lifting ? "Lifting…" : "Lift restriction"}
      </Button>
      {dialog}
    </li>
  );
}
