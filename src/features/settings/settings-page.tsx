import { useQuery } from "convex/react";
import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { PageLoading } from "@/components/layout/page-loading";
import { api } from "@convex/_generated/api";
import { NotificationsSection } from "./notifications-section";
import { PaymentMethodsSection } from "./payment-methods-section";
import { PrivacyPreferencesSection } from "./privacy-preferences-section";
import { PrivacyRequestsSection } from "./privacy-requests-section";
import { ProfileSection } from "./profile-section";
import { SettingsNav, type SettingsNavItem } from "./settings-nav";
import { TermsSection } from "./terms-section";

const SECTIONS: readonly SettingsNavItem[] = [
  { id: "profile", label: "Profile", icon: "lucide:circle-user" },
  { id: "notifications", label: "Notifications", icon: "lucide:bell" },
  { id: "privacy-preferences", label: "Privacy preferences", icon: "lucide:shield" },
  { id: "terms", label: "Terms", icon: "lucide:file-text" },
  { id: "payment-methods", label: "Payment methods", icon: "lucide:credit-card" },
  { id: "privacy-requests", label: "Privacy requests", icon: "lucide:file-lock" },
];

/** /dashboard/settings: the signed-in person's profile, preferences, terms, saved cards and privacy requests. */
export function SettingsPage() {
  const user = useQuery(api.users.viewer, {});
  const settings = useQuery(api.settings.mySettings, {});
  useScrollToHash(Boolean(user && settings));
  // RequireAuth shows this page only once the user row exists; null is the moment of signing out.
  if (!user) return <PageLoading label="Loading your settings…" />;

  return (
    <DashboardShell
      title="Settings"
      description="Your profile, preferences, terms, saved cards and privacy requests."
    >
      <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-10">
        <SettingsNav items={SECTIONS} />
        <div className="min-w-0 max-w-3xl space-y-10">
          <ProfileSection user={user} avatar={user.avatar} />
          {settings ? (
            <>
              <NotificationsSection preferences={settings.notificationPreferences} />
              <PrivacyPreferencesSection preferences={settings.privacyPreferences} />
              <TermsSection acceptance={settings.termsAcceptance} />
              <PaymentMethodsSection
                cards={settings.paymentMethods}
                defaultId={settings.defaultPaymentMethodId}
              />
            </>
          ) : (
            <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
              Loading your preferences…
            </p>
          )}
          <PrivacyRequestsSection />
        </div>
      </div>
    </DashboardShell>
  );
}

/** A link such as /dashboard/settings#terms lands on its section once the page has content. */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || hash.length < 2) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [ready, hash]);
}
