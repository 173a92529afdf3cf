import { useEffect, useRef, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { DashboardShell, type DashboardShellProps } from "@/components/layout/dashboard-shell";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";

const ADMIN_LINKS = [
  { to: paths.dashboard.admin.root.getHref(), label: "Overview", icon: "lucide:gauge", end: true },
  { to: paths.dashboard.admin.shops.getHref(), label: "Shops", icon: "lucide:store", end: false },
  { to: paths.dashboard.admin.streams.getHref(), label: "Streams", icon: "lucide:video", end: false },
  {
    to: paths.dashboard.admin.privacyRequests.getHref(),
    label: "Privacy requests",
    icon: "lucide:file-lock",
    end: false,
  },
  { to: paths.dashboard.admin.users.getHref(), label: "Users & roles", icon: "lucide:users", end: false },
  { to: paths.dashboard.admin.activity.getHref(), label: "Activity", icon: "lucide:history", end: false },
];

/**
 * The admin console's screens, under the dashboard's sections; scrolls sideways on a phone, bringing the
 * current screen's link into view.
 */
function AdminNav() {
  const navRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const nav = navRef.current;
    const active = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !active) return;
    const right = active.offsetLeft + active.offsetWidth;
    if (active.offsetLeft < nav.scrollLeft || right > nav.scrollLeft + nav.clientWidth)
      nav.scrollLeft = right - nav.clientWidth + 16;
  }, [pathname]);
  return (
    <nav ref={navRef} aria-label="Admin console" className="-mx-4 mt-3 overflow-x-auto px-4">
      <ul className="flex gap-1">
        {ADMIN_LINKS.map((link) => (
          <li key={link.to}>
            {/* NavLink sets aria-current="page" on the active link. */}
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                cn(
                  "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-3 py-1.5 text-sm font-medium",
                  isActive
                    ? "bg-primary-100 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100"
                    : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
                )
              }
            >
              <Icon name={link.icon} className="size-4" />
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The frame of every admin screen: the dashboard's frame with the admin console's screens under its sections. */
export function AdminShell(props: Omit<DashboardShellProps, "subnav">) {
  return <DashboardShell {...props} subnav={<AdminNav />} />;
}

/** A link back to one of the console's lists, from a screen of one thing in it. */
export function AdminBackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100"
    >
      <Icon name="lucide:arrow-left" className="size-4" />
      {children}
    </Link>
  );
}
