import { UserButton } from "@clerk/react";
import { accountLinks } from "@/components/layout/account-links";
import { Icon } from "@/components/ui/icon";
import { ROLE_LABELS } from "@/lib/roles";
import { useCurrentUser } from "./current-user";

/**
 * Clerk's own account button with the same pages as the local menu. Clerk's menu has no place for
 * plain text, so the role sits beside the button.
 */
export function ClerkAccountButton() {
  const { user } = useCurrentUser();
  return (
    <div className="flex items-center gap-2">
      {user && (
        <span className="rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
          <span className="sr-only">Role: </span>
          {ROLE_LABELS[user.role]}
        </span>
      )}
      <UserButton>
        <UserButton.MenuItems>
          {accountLinks(user?.role === "admin").map((link) => (
            <UserButton.Link
              key={link.href}
              label={link.label}
              href={link.href}
              labelIcon={<Icon name={link.icon} className="size-4" />}
            />
          ))}
          <UserButton.Action label="manageAccount" />
          <UserButton.Action label="signOut" />
        </UserButton.MenuItems>
      </UserButton>
    </div>
  );
}
