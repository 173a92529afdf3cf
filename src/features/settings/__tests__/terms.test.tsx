import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { TERMS_VERSION } from "@convex/lib/constants";
import { convexReactMock, mutationCalls, resetConvexMock } from "@/test/convex-mock";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { SettingsPage } from "../settings-page";
import { ACCEPTED_AT, signedInWith } from "./fixtures";

vi.mock("convex/react", () => convexReactMock);

beforeEach(() => {
  resetConvexMock();
});

function renderAt(path: string, page = <SettingsPage />) {
  render(<MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>);
}

const OLD_TERMS = { version: "0.9", acceptedAt: ACCEPTED_AT };

describe("terms", () => {
  test("shows the accepted version and when, without asking again", () => {
    signedInWith();
    renderAt("/dashboard/settings");
    const terms = screen.getByRole("region", { name: "Terms and privacy policy" });
    expect(terms).toHaveTextContent(`Version ${TERMS_VERSION}, accepted on Mar 4, 2026.`);
    expect(within(terms).queryByRole("button")).not.toBeInTheDocument();
  });

  test("asks to accept the new version when the accepted one is older, and accepts it", async () => {
    signedInWith({ termsAcceptance: OLD_TERMS });
    renderAt("/dashboard/settings");
    const terms = screen.getByRole("region", { name: "Terms and privacy policy" });
    expect(terms).toHaveTextContent("Version 0.9, accepted on Mar 4, 2026.");
    expect(terms).toHaveTextContent(`The terms have changed: version ${TERMS_VERSION} is now current.`);
    await userEvent.click(within(terms).getByRole("button", { name: `Accept version ${TERMS_VERSION}` }));
    expect(mutationCalls).toEqual([{ name: "settings:acceptTerms", args: { version: TERMS_VERSION } }]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(terms).getByRole("status")).toHaveTextContent(
        `Saved — you accepted version ${TERMS_VERSION}.`,
      ),
    );
  });

  test("a banner across the dashboard asks for review while the terms are out of date", () => {
    signedInWith({ termsAcceptance: OLD_TERMS });
    renderAt(
      "/dashboard/streams",
      <DashboardShell title="Streams">
        <p>content</p>
      </DashboardShell>,
    );
    const banner = screen.getByRole("region", { name: "Updated terms" });
    expect(within(banner).getByRole("link", { name: "Review the terms" })).toHaveAttribute(
      "href",
      "/dashboard/settings#terms",
    );
  });

  test("no banner once the current terms are accepted, nor on the settings page itself", () => {
    signedInWith();
    renderAt("/dashboard/streams", <DashboardShell title="Streams">content</DashboardShell>);
    expect(screen.queryByRole("region", { name: "Updated terms" })).not.toBeInTheDocument();
    cleanup();
    resetConvexMock();
    signedInWith({ termsAcceptance: OLD_TERMS });
    renderAt("/dashboard/settings");
    expect(screen.queryByRole("region", { name: "Updated terms" })).not.toBeInTheDocument();
  });
});
