import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { PreferenceSwitches, type PreferenceItem } from "./preference-switches";
import { updateLocalSettings, withSwitches, type Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

type Key = keyof Settings["notificationPreferences"];

const ITEMS: readonly PreferenceItem<Key>[] = [
  {
    key: "goLiveSavedStreams",
    label: "Saved streams going live",
    description: "A notice while LiveLocal is open when a stream on your watch list goes live.",
  },
  {
    key: "goLiveFollowedShops",
    label: "Followed shops going live",
    description: "A notice while LiveLocal is open when a shop you follow starts a stream.",
  },
  {
    key: "emailDigest",
    label: "Weekly email digest",
    description:
      "An email each week with upcoming shows from the shops you follow and the streams you saved.",
  },
];

/** Go-live alerts and the email digest, saved as each switch is flipped. */
export function NotificationsSection({ preferences }: { preferences: Settings["notificationPreferences"] }) {
  const setPreferences = useMutation(api.settings.setNotificationPreferences).withOptimisticUpdate(
    (store, { preferences: changes }) =>
      updateLocalSettings(store, (settings) => ({
        ...settings,
        notificationPreferences: withSwitches(settings.notificationPreferences, changes),
      })),
  );
  return (
    <SettingsSection
      id="notifications"
      title="Notifications"
      icon="lucide:bell"
      description="Choose what LiveLocal tells you about. Changes are saved as you make them."
    >
      <PreferenceSwitches
        items={ITEMS}
        values={preferences}
        save={(key, value) => setPreferences({ preferences: { [key]: value } })}
      />
    </SettingsSection>
  );
}
