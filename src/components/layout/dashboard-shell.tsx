import type { ReactNode } from "react";
import { ShopsHiddenBanner } from "@/components/shops/shops-hidden-banner";
import { useDocumentTitle } from "@/lib/use-document-title";
import { DashboardNav } from "./dashboard-nav";
import { TermsBanner } from "./terms-banner";

export type DashboardShellProps = {
  title: string;
  /** Under the heading: a status, a note, who is signed in. */
  description?: ReactNode;
  /** Beside the heading on wide screens, under it on a phone. */
  actions?: ReactNode;
  /** Under the dashboard's sections: a section's own screens (the admin console's). */
  subnav?: ReactNode;
  children: ReactNode;
};

/** The frame of every dashboard page: its sections, the page's heading and the tab title. */
export function DashboardShell({ title, description, actions, subnav, children }: DashboardShellProps) {
  useDocumentTitle(title);
  return (
    // Names people choose (a shop, a show) may be one long word: it breaks where it must, and a grid or
    // flex column holding it never grows past the page for it (`anywhere` counts in min-content widths;
    // `break-word` does not).
    <div className="mx-auto max-w-5xl px-4 pb-10 pt-4 [overflow-wrap:anywhere]">
      <DashboardNav />
      {subnav}
      <TermsBanner />
      <ShopsHiddenBanner />
      <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
          {description && <div className="mt-2 text-slate-600 dark:text-slate-300">{description}</div>}
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
      <div className="mt-8">{children}</div>
    </div>
  );
}
