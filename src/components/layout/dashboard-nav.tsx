import { useQuery } from "convex/react";
import { NavLink } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { api } from "@convex/_generated/api";

const LINKS = [
  { to: paths.dashboard.root.getHref(), label: "Overview", icon: "lucide:layout-dashboard", end: true },
  { to: paths.dashboard.liveShops.getHref(), label: "Live shops", icon: "lucide:store", end: false },
  { to: paths.dashboard.streams.getHref(), label: "Streams", icon: "lucide:video", end: false },
  { to: paths.dashboard.settings.getHref(), label: "Settings", icon: "lucide:settings", end: false },
];

const ADMIN_LINK = {
  to: paths.dashboard.admin.root.getHref(),
  label: "Admin",
  icon: "lucide:shield-check",
  end: false,
};

/** The dashboard's own sections, above each dashboard page; scrolls sideways on a phone. */
export function DashboardNav() {
  const viewer = useQuery(api.users.viewer, {});
  const links = viewer?.role === "admin" ? [...LINKS, ADMIN_LINK] : LINKS;
  return (
    <nav aria-label="Dashboard" className="-mx-4 overflow-x-auto px-4">
      <ul className="flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                cn(
                  "-mb-px inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium",
                  isActive
                    ? "border-primary-600 text-primary-700 dark:text-primary-100"
                    : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
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
