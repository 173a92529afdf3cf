/**
 * Which channels each kind of notice goes to for a person (decision 036): their choice, else the
 * kind's default. Shared with the settings page, which draws its grid from the preferences it already
 * holds rather than waiting on a query of its own.
 */
import type { NotificationKind } from "./constants";
import type { ChannelSwitches, NotificationPreferences } from "../schema";

const OFF: ChannelSwitches = { inApp: false, email: false, push: false };

/** What a kind does before the person chooses: in the app only, where that is where it was before. */
export const DEFAULT_CHANNELS: Record<NotificationKind, ChannelSwitches> = {
  goLive: { inApp: true, email: false, push: false },
  reminder1h: OFF,
  reminder10m: { inApp: true, email: false, push: false },
  showChanged: { inApp: true, email: false, push: false },
  // Off unless the person (or the old `emailDigest` switch, see channelsFor) turned it on.
  weeklyDigest: OFF,
  shopDecision: { inApp: true, email: true, push: false },
  streamModerated: { inApp: true, email: true, push: false },
  privacyDecision: { inApp: true, email: true, push: false },
  shopClosed: { inApp: true, email: false, push: false },
};

/** The person's switches for one kind: their choice, else the default (the old digest switch included). */
export function channelsFor(
  preferences: Pick<NotificationPreferences, "channels" | "emailDigest">,
  kind: NotificationKind,
): ChannelSwitches {
  const chosen = preferences.channels?.[kind];
  if (chosen) return chosen;
  if (kind === "weeklyDigest") return { ...OFF, email: preferences.emailDigest };
  return DEFAULT_CHANNELS[kind];
}
