import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { accountLinks } from "./account-links";
import { Avatar } from "./avatar";

export type AccountMenuUser = { name: string; email: string; roleLabel: string; avatarUrl?: string };

type AccountMenuProps = {
  user: AccountMenuUser;
  /** The Admin entry; the admin screens refuse everyone else anyway, so this only spares a 403. */
  showAdmin: boolean;
  onSignOut: () => void;
};

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}

const itemClass =
  "flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-700 outline-none hover:bg-slate-100 focus-visible:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800";

/**
 * The signed-in person's avatar button and its menu (WAI-ARIA menu button pattern): opening moves
 * focus to the first item, arrows move between items, Escape closes and returns focus to the button,
 * and a click outside or tabbing away closes it.
 */
export function AccountMenu({ user, showAdmin, onSignOut }: AccountMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const labelId = useId();
  const avatarId = useId();

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutsidePointer);
    return () => document.removeEventListener("pointerdown", closeOnOutsidePointer);
  }, [open]);

  function onKeyDown(event: KeyboardEvent) {
    if (!open) return;
    const items = menuItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    const keys: Record<string, () => void> = {
      Escape: () => {
        setOpen(false);
        buttonRef.current?.focus();
      },
      ArrowDown: () => focusAt(index + 1),
      ArrowUp: () => focusAt(index - 1),
      Home: () => focusAt(0),
      End: () => focusAt(items.length - 1),
    };
    if (event.key === "Tab") setOpen(false);
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  return (
    <div ref={rootRef} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        // WCAG 2.5.3: initials drawn in place of a picture are a visible label, so the name ends with them.
        aria-labelledby={`${labelId} ${avatarId}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
      >
        <span id={labelId} className="sr-only">
          Account: {user.name}
        </span>
        <Avatar id={avatarId} name={user.name} url={user.avatarUrl} />
      </button>
      {open && (
        <div className="absolute right-0 z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-800 dark:bg-slate-900">
          <div className="border-b border-slate-200 px-3 py-2 dark:border-slate-800">
            <p className="truncate font-medium">{user.name}</p>
            <p className="truncate text-sm text-slate-600 dark:text-slate-300">{user.email}</p>
            <p className="mt-1 inline-flex rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
              {user.roleLabel}
            </p>
          </div>
          <div ref={menuRef} id={menuId} role="menu" aria-label="Account" className="pt-1">
            {accountLinks(showAdmin).map((link) => (
              <Link
                key={link.href}
                role="menuitem"
                tabIndex={-1}
                to={link.href}
                className={itemClass}
                onClick={() => setOpen(false)}
              >
                <Icon name={link.icon} className="size-4" />
                {link.label}
              </Link>
            ))}
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className={itemClass}
              onClick={() => {
                setOpen(false);
                onSignOut();
              }}
            >
              <Icon name="lucide:log-out" className="size-4" />
              Sign out
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
