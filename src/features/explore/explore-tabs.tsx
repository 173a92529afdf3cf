import { NavLink } from "react-router-dom";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-full px-4 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-primary-600",
    isActive
      ? "bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white"
      : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
  );

/** Streams and live shops, as links that carry the current filter across. */
export function ExploreTabs({ search }: { search: string }) {
  return (
    <nav aria-label="Explore lists" className="inline-flex rounded-full bg-slate-100 p-1 dark:bg-slate-800">
      <NavLink to={paths.explore.streams.getHref(search)} className={tabClass}>
        Streams
      </NavLink>
      <NavLink to={paths.explore.liveShops.getHref(search)} className={tabClass}>
        Live shops
      </NavLink>
    </nav>
  );
}
