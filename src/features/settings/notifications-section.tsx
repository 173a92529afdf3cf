import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { ChannelGrid } from "./channel-grid";
import { DigestSettings } from "./digest-settings";
import { PreferenceSwitches, type PreferenceItem } from "./preference-switches";
import { PushDevices } from "./push-devices";
import { RecentNotices } from "./recent-notices";
import { updateLocalSettings, type Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

type Key = "goLiveSavedStreams" | "goLiveFollowedShops";

const ITEMS: readonly PreferenceItem<Key>[] = [
  {
    key: "goLiveSavedStreams",
    label: "Saved streams going live",
    description: "Be told when a stream on your watch list goes live, on the channels chosen below.",
  },
  {
    key: "goLiveFollowedShops",
    label: "Followed shops going live",
    description: "Be told when a shop you follow starts a stream, on the channels chosen below.",
  },
];

/** Which go-lives, on which channels each kind of notice goes, this browser's pushes and recent notices. */
export function NotificationsSection({ preferences }: { preferences: Settings["notificationPreferences"] }) {
  const setPreferences = useMutation(api.settings.setNotificationPreferences).withOptimisticUpdate(
    (store, { preferences: changes }) =>
      updateLocalSettings(store, (settings) => ({
        ...settings,
        notificationPreferences: { ...settings.notificationPreferences, ...changes },
      })),
  );
  return (
    <SettingsSection
      id="notifications"
      title="Notifications"
      icon="lucide:bell"
      description="Choose what LiveLocal tells you about, and where: in the app, by e-mail, or as a push to your devices even when LiveLocal is closed. Changes are saved as you make them."
    >
      <PreferenceSwitches
        items={ITEMS}
        values={{
          goLiveSavedStreams: preferences.goLiveSavedStreams,
          goLiveFollowedShops: preferences.goLiveFollowedShops,
        }}
        save={(key, value) => setPreferences({ preferences: { [key]: value } })}
      />
      <ChannelGrid preferences={preferences} />
      <DigestSettings />
      <PushDevices />
      <RecentNotices />
    </SettingsSection>
  );
}
