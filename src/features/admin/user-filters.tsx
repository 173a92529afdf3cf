import { useEffect, useId, useState } from "react";
import { parseRole } from "@/lib/roles";
import type { Role } from "@convex/lib/constants";
import { SEARCH_DELAY_MS } from "./admin-list";

export type UserFilter = { role?: Role; email: string };

const ROLE_OPTIONS: { value: Role | ""; label: string }[] = [
  { value: "", label: "All roles" },
  { value: "admin", label: "Admins" },
  { value: "seller", label: "Sellers" },
  { value: "viewer", label: "Viewers" },
];

const fieldClass =
  "mt-1 block h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900";

type UserFiltersProps = { filter: UserFilter; onChange: (filter: UserFilter) => void };

/** Narrows the users list by role and by the start of the email address. */
export function UserFilters({ filter, onChange }: UserFiltersProps) {
  const roleId = useId();
  const emailId = useId();
  const [email, setEmail] = useState(filter.email);
  const { role, email: appliedEmail } = filter;

  useEffect(() => {
    const next = email.trim();
    if (next === appliedEmail) return;
    const timer = setTimeout(() => onChange({ role, email: next }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [email, appliedEmail, role, onChange]);

  return (
    <div className="flex flex-wrap items-end gap-4">
      <div>
        <label htmlFor={roleId} className="text-sm font-medium">
          Role
        </label>
        <select
          id={roleId}
          value={role ?? ""}
          onChange={(event) => onChange({ role: parseRole(event.target.value), email: appliedEmail })}
          className={fieldClass}
        >
          {ROLE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 flex-1 sm:max-w-xs">
        <label htmlFor={emailId} className="text-sm font-medium">
          Email starts with
        </label>
        <input
          id={emailId}
          type="search"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className={`${fieldClass} w-full`}
        />
      </div>
    </div>
  );
}
