import { useQuery } from "convex/react";
import { Icon } from "@/components/ui/icon";
import { api } from "@convex/_generated/api";
import { PrivacyExportDownload } from "./privacy-export-download";
import { PrivacyOpenRequest } from "./privacy-open-request";
import { PrivacyRequestForm } from "./privacy-request-form";
import { PrivacyRequestHistory } from "./privacy-request-history";
import { SettingsSection } from "./settings-section";
import { PRIVACY_TYPE_LABELS, privacyStatusLabel, type MyPrivacy } from "@/components/privacy/privacy-status";

/** One sentence for screen readers whenever the state of the person's requests changes. */
function announcement(privacy: MyPrivacy): string {
  if (privacy.dataExport) return "Your data export is ready to download.";
  if (privacy.open) {
    return `${PRIVACY_TYPE_LABELS[privacy.open.type]} request: ${privacyStatusLabel(privacy.open)}.`;
  }
  const latest = privacy.history[0];
  return latest ? `${PRIVACY_TYPE_LABELS[latest.type]} request: ${privacyStatusLabel(latest)}.` : "";
}

/**
 * Settings, "Privacy requests": the GDPR rights (access, rectification, erasure, restriction) as
 * requests an admin answers within a month. One open request at a time; everything updates live.
 */
export function PrivacyRequestsSection() {
  const privacy = useQuery(api.privacy.myPrivacy, {});

  return (
    <SettingsSection
      id="privacy-requests"
      title="Privacy requests"
      icon="lucide:file-lock"
      description="Ask for a copy of your data, a correction, a restriction of how it is used, or the deletion of your account. A LiveLocal admin answers within one month."
    >
      {privacy === undefined || privacy === null ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
          Loading your privacy requests…
        </p>
      ) : (
        <>
          <p role="status" className="sr-only">
            {announcement(privacy)}
          </p>
          <div className="space-y-5">
            {privacy.restricted && (
              <p className="flex gap-2 rounded-xl bg-secondary-50 px-4 py-3 text-sm text-secondary-700 dark:bg-secondary-700/30 dark:text-blue-100">
                <Icon name="lucide:shield-check" className="mt-0.5 size-4" />
                <span>
                  Processing of your data is restricted: your shops and streams are hidden from public pages
                  until a LiveLocal admin lifts the restriction.
                </span>
              </p>
            )}
            {privacy.dataExport && <PrivacyExportDownload dataExport={privacy.dataExport} />}
            {privacy.open ? (
              <PrivacyOpenRequest request={privacy.open} />
            ) : (
              <div>
                <h3 className="mb-4 text-base font-semibold">New request</h3>
                <PrivacyRequestForm />
              </div>
            )}
          </div>
          <PrivacyRequestHistory
            requests={privacy.history.filter((request) => request._id !== privacy.open?._id)}
          />
        </>
      )}
    </SettingsSection>
  );
}
