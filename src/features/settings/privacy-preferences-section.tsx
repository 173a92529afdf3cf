import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { PreferenceSwitches, type PreferenceItem } from "./preference-switches";
import { updateLocalSettings, withSwitches, type Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

/**
 * "Personalized recommendations" was removed (decision 036): LiveLocal orders nothing by a person's
 * history. "Count my visits" came back with seller insights (decision 089): off, the person's views,
 * clicks, saves and follows are not counted.
 */
type Key = "analytics" | "showProfile";

const ITEMS: readonly PreferenceItem<Key>[] = [
  {
    key: "analytics",
    label: "Count my visits in sellers' insights",
    description:
      "Let shops count your page views, clicks, saves and follows in their totals. Nothing says it was you.",
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
