import type { ReactNode } from "react";
import { Icon } from "@/components/ui/icon";

type SettingsSectionProps = {
  /** The in-page anchor (`/dashboard/settings#terms`) and the heading's id prefix. */
  id: string;
  title: string;
  icon: string;
  description?: ReactNode;
  children: ReactNode;
};

/** One titled part of the settings page, reachable from the section links. */
export function SettingsSection({ id, title, icon, description, children }: SettingsSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-24">
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold tracking-tight">
        <Icon name={icon} className="size-5 text-primary-700 dark:text-primary-100" />
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
      <div className="mt-4 rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800">
        {children}
      </div>
    </section>
  );
}
