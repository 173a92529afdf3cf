import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
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
});

describe("settings", () => {
  test("the profile shows name, email and role, read-only", () => {
    signedInWith();
    renderSettings();
    expect(screen.getByRole("heading", { name: "Settings", level: 1 })).toBeInTheDocument();
    const profile = screen.getByRole("region", { name: "Profile" });
    const terms = within(profile)
      .getAllByRole("term")
      .map((term) => term.textContent);
    const values = within(profile)
      .getAllByRole("definition")
      .map((value) => value.textContent);
    expect(terms).toEqual(["Name", "Email", "Role"]);
    expect(values).toEqual(["Maria Delgado", "maria@livelocal.test", "Seller"]);
    // The only thing to type in the profile is the picture link.
    expect(
      within(profile)
        .getAllByRole("textbox")
        .map((box) => box.getAttribute("name")),
    ).toEqual(["avatar"]);
    expect(document.title).toBe("Settings · LiveLocal");
  });

  test("says when no name is set", () => {
    setQueryResult(api.users.viewer, { _id: "u2", email: "new@example.com", role: "viewer" });
    setQueryResult(api.settings.mySettings, settingsWith());
    renderSettings();
    expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual([
      "Not set",
      "new@example.com",
      "Viewer",
    ]);
  });

  test("has a section per topic, in order, each linked from the section links", () => {
    signedInWith();
    renderSettings();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual([
      "Profile",
      "Notifications",
      "Privacy preferences",
      "Terms and privacy policy",
      "Payment methods",
      "Privacy requests",
    ]);
    const links = within(screen.getByRole("navigation", { name: "Settings sections" })).getAllByRole("link");
    for (const link of links) {
      const target = document.getElementById(link.getAttribute("href")!.slice(1));
      expect(target, link.textContent ?? "").toBeInstanceOf(HTMLElement);
      expect(target?.tagName).toBe("SECTION");
    }
    expect(links).toHaveLength(headings.length);
  });

  test("shows the profile while the rest of the settings load", () => {
    setQueryResult(api.users.viewer, { _id: "u1", email: "a@b.test", role: "viewer" });
    renderSettings();
    expect(screen.getByRole("region", { name: "Profile" })).toHaveTextContent("a@b.test");
    expect(screen.getByText("Loading your preferences…")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Notifications" })).not.toBeInTheDocument();
  });
});
