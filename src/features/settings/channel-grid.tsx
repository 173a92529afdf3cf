import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "@convex/lib/constants";
import { channelsFor } from "@convex/lib/notificationChannels";
import { useSaveFeedback } from "./save-feedback";
import { updateLocalSettings, type Settings } from "./settings-data";

const KIND_LABELS: Record<NotificationKind, { label: string; hint?: string }> = {
  goLive: { label: "A saved show or followed shop goes live" },
  reminder1h: { label: "A saved show starts in 1 hour" },
  reminder10m: { label: "A saved show starts in 10 minutes" },
  showChanged: { label: "A saved show is cancelled or moved" },
  weeklyDigest: {
    label: "Weekly digest",
    hint: "Monday 8 AM your time: the week's shows from shops you follow and your metro areas",
  },
  shopDecision: { label: "Your shop is approved, rejected, suspended or reinstated", hint: "For sellers" },
  streamModerated: { label: "An admin ends or cancels your show", hint: "For sellers, with the reason" },
  privacyDecision: { label: "Your privacy request is decided" },
  shopClosed: {
    label: "A shop you follow, or saved a show from, closes",
    hint: "Its shows leave your watch list",
  },
};

const CHANNELS: { channel: NotificationChannel; label: string }[] = [
  { channel: "inApp", label: "In app" },
  { channel: "email", label: "E-mail" },
  { channel: "push", label: "Push" },
];

/**
 * A switch per kind of notice and channel, saved as each box is ticked. Drawn from the preferences the
 * page already holds (`settings.mySettings`), so it appears with the section, not a round trip later.
 */
export function ChannelGrid({ preferences }: { preferences: Settings["notificationPreferences"] }) {
  const setChannel = useMutation(api.notifications.setChannel).withOptimisticUpdate((store, args) =>
    updateLocalSettings(store, (settings) => {
      const current = settings.notificationPreferences;
      const switches = { ...channelsFor(current, args.kind), [args.channel]: args.on };
      return {
        ...settings,
        notificationPreferences: { ...current, channels: { ...current.channels, [args.kind]: switches } },
      };
    }),
  );
  const { save, feedback } = useSaveFeedback("mt-3");

  async function flip(kind: NotificationKind, channel: NotificationChannel, label: string, on: boolean) {
    await save(
      () => setChannel({ kind, channel, on, appOrigin: window.location.origin }),
      `Saved — ${label} is ${on ? "on" : "off"}.`,
      `${label} was not changed.`,
    );
  }

  const rows = NOTIFICATION_KINDS.map((kind) => ({ kind, channels: channelsFor(preferences, kind) }));
  return (
    <div className="mt-6">
      <h3 className="font-semibold">Where each notice goes</h3>
      <table className="mt-2 w-full text-sm">
        <thead>
          <tr className="text-left text-slate-600 dark:text-slate-300">
            <th scope="col" className="py-2 pr-2 font-medium">
              Notice
            </th>
            {CHANNELS.map(({ channel, label }) => (
              <th key={channel} scope="col" className="w-16 px-1 py-2 text-center font-medium">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {rows.map(({ kind, channels }) => (
            <tr key={kind}>
              <th scope="row" className="py-2 pr-2 text-left font-normal">
                {KIND_LABELS[kind].label}
                {KIND_LABELS[kind].hint && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {KIND_LABELS[kind].hint}
                  </span>
                )}
              </th>
              {CHANNELS.map(({ channel, label }) => {
                const name = `${label}: ${KIND_LABELS[kind].label}`;
                return (
                  <td key={channel} className="px-1 py-2 text-center">
                    <input
                      type="checkbox"
                      aria-label={name}
                      checked={channels[channel]}
                      onChange={(event) => void flip(kind, channel, name, event.target.checked)}
                      className="size-5 accent-primary-700"
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {feedback}
    </div>
  );
}
