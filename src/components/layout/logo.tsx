import { Link } from "react-router-dom";
import { paths } from "@/config/paths";

export function Logo() {
  return (
    <Link
      to={paths.home.getHref()}
      className="flex items-center gap-2 rounded-lg font-semibold tracking-tight text-slate-900 dark:text-white"
    >
      <img src="/favicon.svg" alt="" className="size-8" />
      <span className="text-lg">
        Live<span className="text-primary-700 dark:text-primary-500">Local</span>
      </span>
    </Link>
  );
}
