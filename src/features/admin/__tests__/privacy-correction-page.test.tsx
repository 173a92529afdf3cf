import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LIMITS } from "@convex/lib/validation";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { paths } from "@/config/paths";
import { PrivacyCorrectionPage } from "../privacy-correction-page";

vi.mock("convex/react", () => convexReactMock);

const NOW = Date.UTC(2026, 4, 20, 12);

function subject(overrides: Record<string, unknown> = {}) {
  return {
    requestId: "r1",
    status: "pending_review",
    open: true,
    details: "My surname is Okafor; my shop's headline has a typo.",
    requestedAt: NOW,
    dueAt: NOW + 30 * 86_400_000,
    corrections: [],
    person: { _id: "u1", name: "Sarah Seller", email: "sarah@livelocal.test", emailEditable: true },
    shops: [
      {
        _id: "s1",
        liveShopName: "Sarah's Vintage",
        headline: "Vintge denim",
        status: "active",
        streams: [{ _id: "t1", streamTitle: "Denim live", streamStatus: "ENDED" }],
        moreStreams: false,
      },
    ],
    ...overrides,
  };
}

function renderPage() {
  const router = createMemoryRouter(
    [{ path: paths.dashboard.admin.privacyCorrection.path, element: <PrivacyCorrectionPage /> }],
    { initialEntries: [paths.dashboard.admin.privacyCorrection.getHref("r1")] },
  );
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, { _id: "a1", email: "ada@livelocal.test", role: "admin" });
});

describe("admin: the correction screen", () => {
  test("shows what was asked and corrects the profile, saying how many fields changed", async () => {
    setQueryResult(api.privacy.getCorrection, subject());
    mutationImpl.current = () => Promise.resolve(1);
    renderPage();
    expect(screen.getByRole("heading", { name: "Correct personal data", level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/my surname is Okafor/i)).toBeInTheDocument();
    const profile = within(screen.getByRole("form", { name: "Correct the profile" }));
    const name = profile.getByRole("textbox", { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, "Sarah Okafor");
    await userEvent.click(profile.getByRole("button", { name: "Save corrections" }));
    expect(mutationCalls).toEqual([
      {
        name: "privacy:correctProfile",
        args: {
          requestId: "r1",
          profile: { name: "Sarah Okafor", email: "sarah@livelocal.test", avatar: "" },
        },
      },
    ]);
    expect(await profile.findByRole("status")).toHaveTextContent(
      "Saved: 1 change, now listed for the person.",
    );
  });

  test("the shared limits are checked before anything is sent; the server's refusal is shown in words", async () => {
    setQueryResult(api.privacy.getCorrection, subject());
    renderPage();
    const shop = within(screen.getByRole("form", { name: "Correct Sarah's Vintage" }));
    const headline = shop.getByRole("textbox", { name: /^Headline/ });
    await userEvent.clear(headline);
    await userEvent.click(headline);
    await userEvent.paste("x".repeat(LIMITS.headline + 1));
    await userEvent.click(shop.getByRole("button", { name: "Save corrections" }));
    expect(headline).toHaveAccessibleDescription(expect.stringContaining("at most 200 characters"));
    expect(mutationCalls).toEqual([]);

    await userEvent.clear(headline);
    await userEvent.type(headline, "Vintage denim");
    mutationImpl.current = () =>
      Promise.reject(
        new ConvexError({ code: "CONFLICT", message: "This request has already been answered." }),
      );
    await userEvent.click(shop.getByRole("button", { name: "Save corrections" }));
    expect(await shop.findByRole("alert")).toHaveTextContent("This request has already been answered.");
    expect(mutationCalls[0]).toEqual({
      name: "privacy:correctShopText",
      args: {
        requestId: "r1",
        liveShopId: "s1",
        shop: {
          liveShopName: "Sarah's Vintage",
          headline: "Vintage denim",
          description: "",
          productsSummary: "",
        },
      },
    });
  });

  test("a show's words are corrected from its own form, even once it has ended", async () => {
    setQueryResult(api.privacy.getCorrection, subject());
    mutationImpl.current = () => Promise.resolve(1);
    renderPage();
    await userEvent.click(screen.getByText("Denim live"));
    const show = within(screen.getByRole("form", { name: "Correct the show Denim live" }));
    await userEvent.type(show.getByRole("textbox", { name: /^Title/ }), " with Sarah Okafor");
    await userEvent.click(show.getByRole("button", { name: "Save corrections" }));
    expect(mutationCalls).toEqual([
      {
        name: "privacy:correctStreamText",
        args: {
          requestId: "r1",
          streamId: "t1",
          stream: { streamTitle: "Denim live with Sarah Okafor", streamDescription: "" },
        },
      },
    ]);
  });

  test("an answered request only lists its changes", () => {
    setQueryResult(
      api.privacy.getCorrection,
      subject({
        open: false,
        status: "completed",
        person: { _id: "u1", name: "Sarah Okafor", email: "sarah@livelocal.test", emailEditable: false },
        corrections: [{ at: NOW, what: "Your name", from: "Sarah Seller", to: "Sarah Okafor" }],
      }),
    );
    renderPage();
    expect(screen.getByRole("list", { name: "Changes made" })).toHaveTextContent(
      "Your name: was “Sarah Seller”, now “Sarah Okafor”",
    );
    expect(screen.getByText(/This request has been answered/)).toBeInTheDocument();
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
  });

  test("an email managed by the sign-in service is not a field", () => {
    setQueryResult(
      api.privacy.getCorrection,
      subject({ person: { _id: "u1", email: "sarah@livelocal.test", emailEditable: false } }),
    );
    renderPage();
    const profile = within(screen.getByRole("form", { name: "Correct the profile" }));
    expect(profile.queryByRole("textbox", { name: /^Email/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Emails are managed by the sign-in service here/)).toBeInTheDocument();
  });
});
