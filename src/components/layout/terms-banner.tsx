import { useQuery } from "convex/react";
import { Link, useLocation } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import { TERMS_VERSION } from "@convex/lib/constants";

/**
 * Across the dashboard while the person's accepted terms are not the current version: a request to
 * review and accept them in settings (which asks itself, so the banner stays off that page).
 */
export function TermsBanner() {
  const settings = useQuery(api.settings.mySettings, {});
  const { pathname } = useLocation();
  if (!settings || settings.termsAcceptance.version === TERMS_VERSION) return null;
  if (pathname === paths.dashboard.settings.path) return null;
  return (
    <div
      role="region"
      aria-label="Updated terms"
      className="mt-4 flex flex-col gap-3 rounded-xl bg-amber-50 px-4 py-3 text-amber-900 sm:flex-row sm:items-center sm:justify-between dark:bg-amber-950/50 dark:text-amber-100"
    >
      <p className="flex items-start gap-2 text-sm">
        <Icon name="lucide:file-text" className="mt-0.5 size-4" />
        <span>
          LiveLocal's terms and privacy policy have changed (version {TERMS_VERSION}). Please review and
          accept them.
        </span>
      </p>
      <Link
        to={`${paths.dashboard.settings.getHref()}#terms`}
        className="shrink-0 text-sm font-semibold underline underline-offset-2 hover:no-underline"
      >
        Review the terms
      </Link>
    </div>
  );
}
