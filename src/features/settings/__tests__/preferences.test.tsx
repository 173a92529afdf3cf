import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { NOTIFICATION_KINDS } from "@convex/lib/constants";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { SettingsPage } from "../settings-page";
import { settingsWith, signedInWith } from "./fixtures";

vi.mock("convex/react", () => convexReactMock);

function renderSettings() {
  render(
    <MemoryRouter initialEntries={["/dashboard/settings"]}>
      <SettingsPage />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  resetConvexMock();
  signedInWith();
});

describe("notification preferences", () => {
  test("a switch shows the stored value and saves only itself when flipped, saying Saved", async () => {
    let settle: () => void = () => {};
    mutationImpl.current = () => new Promise((resolve) => (settle = () => resolve(null)));
    renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    const followed = within(notifications).getByRole("switch", { name: "Followed shops going live" });
    expect(followed).toHaveAttribute("aria-checked", "true");
    expect(within(notifications).getByRole("switch", { name: "Saved streams going live" })).toHaveAttribute(
      "aria-checked",
      "true",
    );

    await userEvent.click(followed);
    // Shown at once, before the server answers.
    expect(followed).toHaveAttribute("aria-checked", "false");
    expect(mutationCalls).toEqual([
      { name: "settings:setNotificationPreferences", args: { preferences: { goLiveFollowedShops: false } } },
    ]);
    // The server agrees: the live query now holds the new value.
    setQueryResult(
      api.settings.mySettings,
      settingsWith({
        notificationPreferences: { goLiveSavedStreams: true, goLiveFollowedShops: false, emailDigest: false },
      }),
    );
    settle();
    // The switches' live region (the first; the channel grid has its own) is always there, empty
    // until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(notifications).getAllByRole("status")[0]).toHaveTextContent(
        "Saved — Followed shops going live is off.",
      ),
    );
    expect(followed).toHaveAttribute("aria-checked", "false");
  });

  test("a refused save puts the switch back and says why", async () => {
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "UNAUTHENTICATED", message: "Sign in to continue." }));
    renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    const followed = within(notifications).getByRole("switch", { name: "Followed shops going live" });
    await userEvent.click(followed);
    expect(await within(notifications).findByRole("alert")).toHaveTextContent(
      "Followed shops going live was not changed. Sign in to continue.",
    );
    expect(followed).toHaveAttribute("aria-checked", "true");
    for (const region of within(notifications).getAllByRole("status")) expect(region).toHaveTextContent("");
  });
});

describe("privacy preferences", () => {
  test("the analytics switch saves its own key (seller insights)", async () => {
    renderSettings();
    const privacy = screen.getByRole("region", { name: "Privacy preferences" });
    const analytics = within(privacy).getByRole("switch", { name: "Count my visits in sellers' insights" });
    expect(analytics).toHaveAttribute("aria-checked", "false");
    await userEvent.click(analytics);
    expect(mutationCalls).toEqual([
      { name: "settings:setPrivacyPreferences", args: { preferences: { analytics: true } } },
    ]);
  });

  test("the profile switch saves its own key; the switch that did nothing is gone", async () => {
    renderSettings();
    const privacy = screen.getByRole("region", { name: "Privacy preferences" });
    expect(within(privacy).queryByRole("switch", { name: "Personalized recommendations" })).toBeNull();
    await userEvent.click(within(privacy).getByRole("switch", { name: "Show my profile on my shops" }));
    expect(mutationCalls).toEqual([
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
    signedInWith({
      notificationPreferences: {
        goLiveSavedStreams: true,
        goLiveFollowedShops: true,
        emailDigest: false,
        channels: { reminder1h: { inApp: true, email: false, push: false } },
      },
    });
    renderSettings();
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

  test("appears with the section, from the settings already loaded, without waiting on a query of its own", () => {
    renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    // Synchronously, in the first render: no notifications query has answered (none is set).
    expect(within(notifications).getByRole("table")).toBeInTheDocument();
    expect(
      within(notifications).getByRole("checkbox", {
        name: "In app: A saved show or followed shop goes live",
      }),
    ).toBeChecked();
  });

  test("a ticked box is shown at once and saved with where e-mail links should point", async () => {
    mutationImpl.current = () => new Promise(() => {});
    renderSettings();
    const box = screen.getByRole("checkbox", {
      name: "E-mail: A shop you follow, or saved a show from, closes",
    });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    expect(box).toBeChecked();
    expect(mutationCalls).toEqual([
      {
        name: "notifications:setChannel",
        args: { kind: "shopClosed", channel: "email", on: true, appOrigin: window.location.origin },
      },
    ]);
  });

  test("the weekly digest says which zone its Monday 8 AM is in, and saves the metro areas chosen", async () => {
    setQueryResult(api.weeklyDigest.myDigest, {
      timeZone: null,
      usedTimeZone: "America/New_York",
      areas: ["12420"],
    });
    renderSettings();
    const notifications = screen.getByRole("region", { name: "Notifications" });
    expect(await within(notifications).findByText(/8 AM New York time/)).toBeInTheDocument();
    expect(within(notifications).getByText("Austin-Round Rock-San Marcos, TX")).toBeInTheDocument();
    await userEvent.click(
      within(notifications).getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }),
    );
    await waitFor(() =>
      expect(mutationCalls).toContainEqual({ name: "weeklyDigest:setDigestAreas", args: { cbsaCodes: [] } }),
    );
    expect(await within(notifications).findByText("Saved — your digest's metro areas.")).toBeInTheDocument();
  });
});
