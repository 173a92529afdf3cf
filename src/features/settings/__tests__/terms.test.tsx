import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { TERMS_VERSION } from "@convex/lib/constants";
import { convexBackend } from "@/test/convex-backend";
import { readDoc } from "@/test/convex-seed";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { SettingsPage } from "../settings-page";
import { ACCEPTED_AT, signInWithSettings } from "./fixtures";

const convex = convexBackend();

function renderAt(path: string, page = <SettingsPage />) {
  render(
    <convex.wrapper>
      <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
    </convex.wrapper>,
  );
}

const OLD_TERMS = { version: "0.9", acceptedAt: ACCEPTED_AT };

describe("terms", () => {
  test("shows the accepted version and when, without asking again", async () => {
    await signInWithSettings(convex);
    renderAt("/dashboard/settings");
    const terms = await screen.findByRole("region", { name: "Terms and privacy policy" });
    await waitFor(() =>
      expect(terms).toHaveTextContent(`Version ${TERMS_VERSION}, accepted on Mar 4, 2026.`),
    );
    expect(within(terms).queryByRole("button")).not.toBeInTheDocument();
  });

  test("asks to accept the new version when the accepted one is older, and accepts it", async () => {
    const maria = await signInWithSettings(convex, { termsAcceptance: OLD_TERMS });
    renderAt("/dashboard/settings");
    const terms = await screen.findByRole("region", { name: "Terms and privacy policy" });
    await waitFor(() => expect(terms).toHaveTextContent("Version 0.9, accepted on Mar 4, 2026."));
    expect(terms).toHaveTextContent(`The terms have changed: version ${TERMS_VERSION} is now current.`);
    await userEvent.click(within(terms).getByRole("button", { name: `Accept version ${TERMS_VERSION}` }));
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(terms).getByRole("status")).toHaveTextContent(
        `Saved — you accepted version ${TERMS_VERSION}.`,
      ),
    );
    expect((await readDoc(convex, maria.userId))?.termsAcceptance.version).toBe(TERMS_VERSION);
  });

  test("a banner across the dashboard asks for review while the terms are out of date", async () => {
    await signInWithSettings(convex, { termsAcceptance: OLD_TERMS });
    renderAt(
      "/dashboard/streams",
      <DashboardShell title="Streams">
        <p>content</p>
      </DashboardShell>,
    );
    const banner = await screen.findByRole("region", { name: "Updated terms" });
    expect(within(banner).getByRole("link", { name: "Review the terms" })).toHaveAttribute(
      "href",
      "/dashboard/settings#terms",
    );
  });

  test("no banner once the current terms are accepted, nor on the settings page itself", async () => {
    const maria = await signInWithSettings(convex);
    renderAt("/dashboard/streams", <DashboardShell title="Streams">content</DashboardShell>);
    await convex.answered(api.settings.mySettings, {});
    expect(screen.queryByRole("region", { name: "Updated terms" })).not.toBeInTheDocument();
    cleanup();
    await convex.run((ctx) => ctx.db.patch(maria.userId, { termsAcceptance: OLD_TERMS }));
    renderAt("/dashboard/settings");
    // On the settings page the old version is shown in its section, not in a banner.
    const terms = await screen.findByRole("region", { name: "Terms and privacy policy" });
    await waitFor(() => expect(terms).toHaveTextContent("Version 0.9, accepted on Mar 4, 2026."));
    expect(screen.queryByRole("region", { name: "Updated terms" })).not.toBeInTheDocument();
  });
});
