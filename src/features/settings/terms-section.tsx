import { useMutation } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-date";
import { api } from "@convex/_generated/api";
import { TERMS_VERSION } from "@convex/lib/constants";
import { SaveStatus } from "./save-status";
import type { Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

/** Which terms the person accepted and when; asks again when the current version is another. */
export function TermsSection({ acceptance }: { acceptance: Settings["termsAcceptance"] }) {
  const acceptTerms = useMutation(api.settings.acceptTerms);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const current = acceptance.version === TERMS_VERSION;

  async function accept() {
    setPending(true);
    setError(null);
    setSaved(null);
    try {
      await acceptTerms({ version: TERMS_VERSION });
      setSaved(`Saved — you accepted version ${TERMS_VERSION}.`);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <SettingsSection
      id="terms"
      title="Terms and privacy policy"
      icon="lucide:file-text"
      description="LiveLocal's terms of service and privacy policy share one version number."
    >
      <p className="flex items-start gap-2">
        <Icon
          name={current ? "lucide:circle-check" : "lucide:circle-alert"}
          className={current ? "mt-0.5 text-primary-700 dark:text-primary-100" : "mt-0.5 text-amber-600"}
        />
        <span>
          Version {acceptance.version}, accepted on{" "}
          <time dateTime={new Date(acceptance.acceptedAt).toISOString()}>
            {formatDate(acceptance.acceptedAt)}
          </time>
          .
        </span>
      </p>
      {!current && (
        <div className="mt-4 rounded-xl bg-amber-50 p-4 text-amber-900 dark:bg-amber-950/50 dark:text-amber-100">
          <p className="font-medium">The terms have changed: version {TERMS_VERSION} is now current.</p>
          <p className="mt-1 text-sm">
            You accepted version {acceptance.version}. Accept version {TERMS_VERSION} to confirm you agree to
            the current terms.
          </p>
          <Button className="mt-3" disabled={pending} onClick={() => void accept()}>
            {pending ? "Accepting…" : `Accept version ${TERMS_VERSION}`}
          </Button>
        </div>
      )}
      <SaveStatus message={saved} className="mt-4" />
      {error && (
        <div className="mt-4">
          <FormAlert message={error} />
        </div>
      )}
    </SettingsSection>
  );
}
