import { paths } from "@/config/paths";

export type AccountLink = { label: string; href: string; icon: string };

/** The menu's pages, in order; the Clerk account button offers the same ones. */
export function accountLinks(showAdmin: boolean): AccountLink[] {
  return [
    { label: "Dashboard", href: paths.dashboard.root.getHref(), icon: "lucide:layout-dashboard" },
    { label: "Watch list", href: paths.watchList.getHref(), icon: "lucide:bookmark" },
    { label: "Settings", href: paths.dashboard.settings.getHref(), icon: "lucide:settings" },
    ...(showAdmin
      ? [{ label: "Admin", href: paths.dashboard.admin.root.getHref(), icon: "lucide:shield-check" }]
      : []),
  ];
}
