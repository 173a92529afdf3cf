import { render, screen, within } from "@testing-library/react";
import { useQuery } from "convex/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { insertUser } from "@convex/model/users";
import { convexBackend } from "@/test/convex-backend";
import { holdDatabase } from "@/test/convex-calls";
import { SettingsPage } from "../settings-page";
import { signInWithSettings } from "./fixtures";

const convex = convexBackend();

function renderSettings() {
  return render(
    <convex.wrapper>
      <MemoryRouter initialEntries={["/dashboard/settings"]}>
        <SettingsPage />
      </MemoryRouter>
    </convex.wrapper>,
  );
}

/** Signs in someone with no name, by their email alone. */
async function signInNameless(email: string) {
  const subject = `test|${email}`;
  const userId = await convex.run((ctx) => insertUser(ctx, { clerkId: subject, email, role: "viewer" }));
  await convex.signInAs({ userId, subject, email, name: "" });
}

/** Subscribes to the signed-in person's row, as the app's header does before a page opens. */
function ViewerRow() {
  useQuery(api.users.viewer, {});
  return null;
}

describe("settings", () => {
  test("the profile shows name, email and role, read-only", async () => {
    await signInWithSettings(convex);
    renderSettings();
    expect(await screen.findByRole("heading", { name: "Settings", level: 1 })).toBeInTheDocument();
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

  test("says when no name is set", async () => {
    await signInNameless("new@example.com");
    renderSettings();
    await screen.findByRole("region", { name: "Profile" });
    expect(screen.getAllByRole("definition").map((value) => value.textContent)).toEqual([
      "Not set",
      "new@example.com",
      "Viewer",
    ]);
  });

  test("has a section per topic, in order, each linked from the section links", async () => {
    await signInWithSettings(convex);
    renderSettings();
    await screen.findByRole("region", { name: "Notifications" });
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

  test("shows the profile while the rest of the settings load", async () => {
    await signInNameless("a@b.test");
    const { rerender } = render(<ViewerRow />, { wrapper: convex.wrapper });
    await convex.answered(api.users.viewer, {});
    // The person's row is known; the settings are asked for while the server is busy.
    const release = await holdDatabase(convex);
    rerender(
      <>
        <ViewerRow />
        <MemoryRouter initialEntries={["/dashboard/settings"]}>
          <SettingsPage />
        </MemoryRouter>
      </>,
    );
    expect(screen.getByRole("region", { name: "Profile" })).toHaveTextContent("a@b.test");
    expect(screen.getByText("Loading your preferences…")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Notifications" })).not.toBeInTheDocument();
    await release();
    expect(await screen.findByRole("region", { name: "Notifications" })).toBeInTheDocument();
  });
});
