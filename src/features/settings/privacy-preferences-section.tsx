import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { PreferenceSwitches, type PreferenceItem } from "./preference-switches";
import { updateLocalSettings, withSwitches, type Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

/**
 * "Usage analytics" and "Personalized recommendations" were removed (decision 036): LiveLocal keeps no
 * per-person analytics and orders nothing by a person's history, so neither switch could do anything.
 */
type Key = "showProfile";

const ITEMS: readonly PreferenceItem<Key>[] = [
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
