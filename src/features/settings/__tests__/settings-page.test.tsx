import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { SettingsPage } from "../settings-page";

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
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "maria@livelocal.test",
      name: "Maria Delgado",
      role: "seller",
    });
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
    expect(within(profile).queryByRole("textbox")).not.toBeInTheDocument();
    expect(document.title).toBe("Settings · LiveLocal");
  });

  test("says when no name is set", () => {
    setQueryResult(api.users.viewer, { _id: "u2", email: "new@example.com", role: "viewer" });
    renderSettings();
    expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual([
      "Not set",
      "new@example.com",
      "Viewer",
    ]);
  });
});
