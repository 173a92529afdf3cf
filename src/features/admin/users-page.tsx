import { usePaginatedQuery, useQuery } from "convex/react";
import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { parseRole } from "@/lib/roles";
import { api } from "@convex/_generated/api";
import { AdminShell } from "./admin-shell";
import { UserFilters, type UserFilter } from "./user-filters";
import { UsersTable } from "./users-table";

const PAGE_SIZE = 25;

/** Admin screen: every account with its role, filtered by `?role=` and `?email=`, roles changeable in place. */
export function UsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter: UserFilter = {
    role: parseRole(searchParams.get("role")),
    email: searchParams.get("email")?.trim() ?? "",
  };
  const setFilter = useCallback(
    ({ role, email }: UserFilter) =>
      setSearchParams({ ...(role && { role }), ...(email && { email }) }, { replace: true }),
    [setSearchParams],
  );
  const me = useQuery(api.users.viewer, {});
  const { results, status, loadMore } = usePaginatedQuery(
    api.users.listUsers,
    { ...(filter.role && { role: filter.role }), ...(filter.email && { emailPrefix: filter.email }) },
    { initialNumItems: PAGE_SIZE },
  );
  const filtered = filter.role !== undefined || filter.email !== "";

  return (
    <AdminShell
      title="Users & roles"
      description="Sellers run their own shops; admins manage every shop and these roles. Everyone else is a viewer."
    >
      <UserFilters filter={filter} onChange={setFilter} />

      {status === "LoadingFirstPage" ? (
        <p role="status" className="mt-6 text-slate-500 dark:text-slate-400">
          Loading users…
        </p>
      ) : results.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-dashed border-slate-300 p-8 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {filtered ? "No users match these filters." : "There are no users yet."}
        </p>
      ) : (
        <UsersTable users={results} meId={me?._id} />
      )}

      {(status === "CanLoadMore" || status === "LoadingMore") && (
        <Button
          variant="outline"
          className="mt-6"
          disabled={status === "LoadingMore"}
          onClick={() => loadMore(PAGE_SIZE)}
        >
          {status === "LoadingMore" ? "Loading…" : "Load more"}
        </Button>
      )}
    </AdminShell>
  );
}
