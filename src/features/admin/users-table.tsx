import { formatDate } from "@/lib/format-date";
import type { Id } from "@convex/_generated/dataModel";
import type { Role } from "@convex/lib/constants";
import { UserRoleSelect } from "./user-role-select";

export type UserListItem = { _id: Id<"users">; email: string; name?: string; role: Role; createdAt: number };

/** One row per account: who, their role (changeable), and when they joined. */
export function UsersTable({ users, meId }: { users: UserListItem[]; meId: Id<"users"> | undefined }) {
  return (
    <div className="mt-6 overflow-x-auto rounded-2xl border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="bg-slate-50 text-slate-600 dark:bg-slate-900 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              User
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Role
            </th>
            {/* On a phone the date moves under the email, leaving the width to the role. */}
            <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">
              Joined
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {users.map((user) => (
            <tr key={user._id} className="align-top">
              <td className="px-4 py-3">
                <p className="font-medium">
                  {user.name ?? <span className="text-slate-500 dark:text-slate-400">No name</span>}
                  {user._id === meId && (
                    <span className="font-normal text-slate-500 dark:text-slate-400"> (you)</span>
                  )}
                </p>
                <p className="text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">{user.email}</p>
                <p className="mt-1 text-xs text-slate-500 sm:hidden dark:text-slate-400">
                  Joined <JoinedDate at={user.createdAt} />
                </p>
              </td>
              <td className="px-4 py-3">
                <UserRoleSelect user={user} isYou={user._id === meId} />
              </td>
              <td className="hidden whitespace-nowrap px-4 py-3 text-slate-600 sm:table-cell dark:text-slate-300">
                <JoinedDate at={user.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JoinedDate({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDate(at)}</time>;
}
