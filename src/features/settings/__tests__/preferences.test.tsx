import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { NOTIFICATION_KINDS } from "@convex/lib/constants";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc } from "@/test/convex-seed";
import { NotificationsSection } from "../notifications-section";
import { SettingsPage } from "../settings-page";
import type { Settings } from "../settings-data";
import { settingsWith, signInWithSettings } from "./fixtures";

const convex = convexBackend();
let calls: SentCall[];

/** Maria signed in with `overrides`, the settings page rendered; resolves once her settings are shown. */
async function renderSettings(overrides: Partial<Settings> = {}): Promise<TestPerson> {
  const maria = await signInWithSettings(convex, overrides);
  calls = sentCalls(convex.client);
  render(
    <convex.wrapper>
      <MemoryRouter initialEntries={["/dashboard/settings"]}>
        <SettingsPage />
      </MemoryRouter>
    </convex.wrapper>,
  );
  await screen.findByRole("region", { name: "Notifications" });
  return maria;
}

describe("notification preferences", () => {
  test("a switch shows the stored value and saves only itself when flipped, saying Saved", async () => {
    const maria = await renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    const followed = within(notifications).getByRole("switch", { name: "Followed shops going live" });
    expect(followed).toHaveAttribute("aria-checked", "true");
    expect(within(notifications).getByRole("switch", { name: "Saved streams going live" })).toHaveAttribute(
      "aria-checked",
      "true",
    );

    const release = await holdDatabase(convex);
    await userEvent.click(followed);
    // Shown at once, before the server answers.
    expect(followed).toHaveAttribute("aria-checked", "false");
    expect(calls).toEqual([
      { name: "settings:setNotificationPreferences", args: { preferences: { goLiveFollowedShops: false } } },
    ]);
    // The server agrees: the live query then holds the new value.
    await release();
    // The switches' live region (the first; the channel grid has its own) is always there, empty
    // until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(notifications).getAllByRole("status")[0]).toHaveTextContent(
        "Saved — Followed shops going live is off.",
      ),
    );
    expect(followed).toHaveAttribute("aria-checked", "false");
    expect((await readDoc(convex, maria.userId))?.notificationPreferences.goLiveFollowedShops).toBe(false);
  });

  test("a refused save puts the switch back and says why", async () => {
    // The section alone, so that it stays on the screen when her row goes (the page would close).
    const maria = await signInWithSettings(convex);
    render(
      <MemoryRouter>
        <NotificationsSection preferences={settingsWith().notificationPreferences} />
      </MemoryRouter>,
      { wrapper: convex.wrapper },
    );
    const notifications = screen.getByRole("region", { name: "Notifications" });
    const followed = within(notifications).getByRole("switch", { name: "Followed shops going live" });
    // Her user row stops answering to her sign-in while the change is on its way: the server refuses it.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(maria.userId, { clerkId: "test|someone-else" });
    });
    await userEvent.click(followed);
    await release();
    expect(await within(notifications).findByRole("alert")).toHaveTextContent(
      "Followed shops going live was not changed. Your account is still being set up. Try again in a moment.",
    );
    expect(followed).toHaveAttribute("aria-checked", "true");
    for (const region of within(notifications).getAllByRole("status")) expect(region).toHaveTextContent("");
  });
});

describe("privacy preferences", () => {
  test("the analytics switch saves its own key (seller insights)", async () => {
    const maria = await renderSettings();
    const privacy = screen.getByRole("region", { name: "Privacy preferences" });
    const analytics = within(privacy).getByRole("switch", { name: "Count my visits in sellers' insights" });
    expect(analytics).toHaveAttribute("aria-checked", "false");
    await userEvent.click(analytics);
    expect(calls).toEqual([
      { name: "settings:setPrivacyPreferences", args: { preferences: { analytics: true } } },
    ]);
    await waitFor(async () =>
      expect((await readDoc(convex, maria.userId))?.privacyPreferences.analytics).toBe(true),
    );
  });

  test("the profile switch saves its own key; the switch that did nothing is gone", async () => {
    await renderSettings();
    const privacy = screen.getByRole("region", { name: "Privacy preferences" });
    expect(within(privacy).queryByRole("switch", { name: "Personalized recommendations" })).toBeNull();
    await userEvent.click(within(privacy).getByRole("switch", { name: "Show my profile on my shops" }));
    expect(calls).toEqual([
      { name: "settings:setPrivacyPreferences", args: { preferences: { showProfile: false } } },
    ]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(privacy).getByRole("status")).toHaveTextContent(
        "Saved — Show my profile on my shops is off.",
      ),
    );
  });
});

describe("where each notice goes", () => {
  test("offers a box per channel for each kind of notice, the weekly digest included", async () => {
    await renderSettings({
      notificationPreferences: {
        goLiveSavedStreams: true,
        goLiveFollowedShops: true,
        emailDigest: false,
        channels: { reminder1h: { inApp: true, email: false, push: false } },
      },
    });
    const notifications = screen.getByRole("region", { name: "Notifications" });
    expect(
      await within(notifications).findByRole("checkbox", { name: "E-mail: A saved show starts in 1 hour" }),
    ).not.toBeChecked();
    expect(
      within(notifications).getByRole("checkbox", { name: "In app: A saved show starts in 1 hour" }),
    ).toBeChecked();
    // A kind never chosen shows its default: a privacy decision comes by e-mail.
    expect(
      within(notifications).getByRole("checkbox", { name: "E-mail: Your privacy request is decided" }),
    ).toBeChecked();
    expect(within(notifications).getByRole("checkbox", { name: "E-mail: Weekly digest" })).not.toBeChecked();
    expect(within(notifications).getAllByRole("checkbox")).toHaveLength(NOTIFICATION_KINDS.length * 3);
  });

  test("appears with the section, from the settings already loaded, without waiting on a query of its own", async () => {
    await renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    // In the render that shows the section: nothing else has been waited for.
    expect(within(notifications).getByRole("table")).toBeInTheDocument();
    expect(
      within(notifications).getByRole("checkbox", {
        name: "In app: A saved show or followed shop goes live",
      }),
    ).toBeChecked();
  });

  test("a ticked box is shown at once and saved with where e-mail links should point", async () => {
    await renderSettings();
    const box = screen.getByRole("checkbox", {
      name: "E-mail: A shop you follow, or saved a show from, closes",
    });
    expect(box).not.toBeChecked();
    const release = await holdDatabase(convex);
    await userEvent.click(box);
    expect(box).toBeChecked();
    expect(calls).toEqual([
      {
        name: "notifications:setChannel",
        args: { kind: "shopClosed", channel: "email", on: true, appOrigin: window.location.origin },
      },
    ]);
    await release();
  });

  test("the weekly digest says which zone its Monday 8 AM is in, and saves the metro areas chosen", async () => {
    const maria = await renderSettings({
      notificationPreferences: {
        goLiveSavedStreams: true,
        goLiveFollowedShops: true,
        emailDigest: false,
        digestAreas: ["12420"],
      },
    });
    const notifications = screen.getByRole("region", { name: "Notifications" });
    expect(await within(notifications).findByText(/8 AM New York time/)).toBeInTheDocument();
    expect(within(notifications).getByText("Austin-Round Rock-San Marcos, TX")).toBeInTheDocument();
    await userEvent.click(
      within(notifications).getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }),
    );
    await waitFor(() =>
      expect(calls).toContainEqual({ name: "weeklyDigest:setDigestAreas", args: { cbsaCodes: [] } }),
    );
    expect(await within(notifications).findByText("Saved — your digest's metro areas.")).toBeInTheDocument();
    expect((await readDoc(convex, maria.userId))?.notificationPreferences.digestAreas).toEqual([]);
  });
});
