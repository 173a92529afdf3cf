import { useQuery } from "convex/react";
import { Avatar } from "@/components/layout/avatar";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { PageLoading } from "@/components/layout/page-loading";
import { ROLE_LABELS } from "@/lib/roles";
import { api } from "@convex/_generated/api";

/** /dashboard/settings: who the signed-in person is, as LiveLocal knows them. */
export function SettingsPage() {
  const user = useQuery(api.users.viewer, {});
  // RequireAuth shows this page only once the user row exists; null is the moment of signing out.
  if (!user) return <PageLoading label="Loading your settings…" />;
  const name = user.name ?? user.email;

  return (
    <DashboardShell title="Settings">
      <section aria-labelledby="profile-heading" className="max-w-3xl">
        <h2 id="profile-heading" className="text-xl font-semibold tracking-tight">
          Profile
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Your name and email come from the account you sign in with.
        </p>
        <div className="mt-5 flex flex-col gap-6 rounded-2xl border border-slate-200 p-6 sm:flex-row dark:border-slate-800">
          <Avatar name={name} url={user.avatar} className="size-16 text-xl" />
          <dl className="grid flex-1 gap-4 sm:grid-cols-[8rem_1fr]">
            <ProfileField term="Name" value={user.name ?? "Not set"} />
            <ProfileField term="Email" value={user.email} />
            <ProfileField term="Role" value={ROLE_LABELS[user.role]} />
          </dl>
        </div>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          Creating your first live shop makes you a seller; other role changes are made by LiveLocal admins.
        </p>
      </section>
    </DashboardShell>
  );
}

function ProfileField({ term, value }: { term: string; value: string }) {
  return (
    <div className="contents">
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="break-all">{value}</dd>
    </div>
  );
}
