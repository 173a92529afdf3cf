import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { PreferenceSwitches, type PreferenceItem } from "./preference-switches";
import { updateLocalSettings, withSwitches, type Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

type Key = keyof Settings["privacyPreferences"];

const ITEMS: readonly PreferenceItem<Key>[] = [
  {
    key: "analytics",
    label: "Usage analytics",
    description: "Count your visits in LiveLocal's aggregate statistics.",
  },
  {
    key: "personalization",
    label: "Personalized recommendations",
    description: "Use the streams you save and the shops you follow to order what you see first.",
  },
  {
    key: "showProfile",
    label: "Show my profile on my shops",
    description: "Show your name and picture on the public page of each live shop you own.",
  },
];

/** How LiveLocal may use what it knows about the person, saved as each switch is flipped. */
export function PrivacyPreferencesSection({ preferences }: { preferences: Settings["privacyPreferences"] }) {
  const setPreferences = useMutation(api.settings.setPrivacyPreferences).withOptimisticUpdate(
    (store, { preferences: changes }) =>
      updateLocalSettings(store, (settings) => ({
        ...settings,
        privacyPreferences: withSwitches(settings.privacyPreferences, changes),
      })),
  );
  return (
    <SettingsSection
      id="privacy-preferences"
      title="Privacy preferences"
      icon="lucide:shield"
      description="Decide how your activity is used. Changes are saved as you make them."
    >
      <PreferenceSwitches
        items={ITEMS}
        values={preferences}
        save={(key, value) => setPreferences({ preferences: { [key]: value } })}
      />
    </SettingsSection>
  );
}
