import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/validation";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop, seedStream } from "@/test/convex-seed";
import { paths } from "@/config/paths";
import { PrivacyCorrectionPage } from "../privacy-correction-page";

const convex = convexBackend();

let sarah: TestPerson;
let shop: Id<"liveShops">;
let show: Id<"streams">;
let requestId: Id<"privacyRequests">;
let calls: SentCall[];

/** Sarah Seller's open correction request, her shop (headline with a typo) and its ended show. */
beforeEach(async () => {
  await convex.signInAs("admin", { name: "Ada Admin" });
  sarah = await convex.addUser("seller", { key: "sarah", name: "Sarah Seller" });
  shop = await seedShop(convex, sarah, { liveShopName: "Sarah's Vintage", headline: "Vintge denim" });
  show = await seedStream(convex, shop, { streamTitle: "Denim live", streamStatus: "ENDED" });
  requestId = await convex.run(async (ctx) => {
    const now = Date.now();
    return await ctx.db.insert("privacyRequests", {
      userId: sarah.userId,
      type: "correction",
      status: "pending_review",
      details: "My surname is Okafor; my shop's headline has a typo.",
      requestedAt: now,
      dueAt: now + 30 * 86_400_000,
      createdAt: now,
      updatedAt: now,
    });
  });
  calls = sentCalls(convex.client);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function renderPage() {
  const router = createMemoryRouter(
    [{ path: paths.dashboard.admin.privacyCorrection.path, element: <PrivacyCorrectionPage /> }],
    { initialEntries: [paths.dashboard.admin.privacyCorrection.getHref(requestId)] },
  );
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
}

describe("admin: the correction screen", () => {
  test("shows what was asked and corrects the profile, saying how many fields changed", async () => {
    renderPage();
    expect(
      await screen.findByRole("heading", { name: "Correct personal data", level: 1 }),
    ).toBeInTheDocument();
    expect(await screen.findByText(/my surname is Okafor/i)).toBeInTheDocument();
    const profile = within(screen.getByRole("form", { name: "Correct the profile" }));
    const name = profile.getByRole("textbox", { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, "Sarah Okafor");
    await userEvent.click(profile.getByRole("button", { name: "Save corrections" }));
    expect(calls).toEqual([
      {
        name: "privacy:correctProfile",
        args: {
          requestId,
          profile: { name: "Sarah Okafor", email: "sarah@livelocal.test", avatar: "" },
        },
      },
    ]);
    expect(await profile.findByRole("status")).toHaveTextContent(
      "Saved: 1 change, now listed for the person.",
    );
    expect((await readDoc(convex, sarah.userId))?.name).toBe("Sarah Okafor");
  });

  test("the shared limits are checked before anything is sent", async () => {
    renderPage();
    const shopForm = within(await screen.findByRole("form", { name: "Correct Sarah's Vintage" }));
    const headline = shopForm.getByRole("textbox", { name: /^Headline/ });
    await userEvent.clear(headline);
    await userEvent.click(headline);
    await userEvent.paste("x".repeat(LIMITS.headline + 1));
    await userEvent.click(shopForm.getByRole("button", { name: "Save corrections" }));
    expect(headline).toHaveAccessibleDescription(expect.stringContaining("at most 200 characters"));
    expect(calls).toEqual([]);
  });

  // The server refuses a correction when the request was answered meanwhile; the live subject then drops
  // the forms, and the page keeps the refusal where the request is.
  test("the server's refusal is shown in words, also once the forms are gone", async () => {
    renderPage();
    const shopForm = within(await screen.findByRole("form", { name: "Correct Sarah's Vintage" }));
    const headline = shopForm.getByRole("textbox", { name: /^Headline/ });
    await userEvent.clear(headline);
    await userEvent.type(headline, "Vintage denim");
    // Another admin answers the request while this correction is on its way.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(requestId, { status: "completed", decidedAt: Date.now() });
    });
    await userEvent.click(shopForm.getByRole("button", { name: "Save corrections" }));
    await release();
    // Whichever comes first, the refusal (shown in the form) or the answered request (which drops the
    // forms), the page ends up saying it.
    await waitFor(
      () =>
        expect(screen.getByRole("alert")).toHaveTextContent(
          "Your last correction was not saved. This request has already been answered; corrections are made while it is open.",
        ),
      { timeout: 3_000 },
    );
    expect(
      screen.getByText("This request has been answered: nothing more is corrected for it."),
    ).toBeVisible();
    expect(screen.queryByRole("form", { name: "Correct Sarah's Vintage" })).not.toBeInTheDocument();
    expect(calls[0]).toEqual({
      name: "privacy:correctShopText",
      args: {
        requestId,
        liveShopId: shop,
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
    renderPage();
    await userEvent.click(await screen.findByText("Denim live"));
    const showForm = within(screen.getByRole("form", { name: "Correct the show Denim live" }));
    await userEvent.type(showForm.getByRole("textbox", { name: /^Title/ }), " with Sarah Okafor");
    await userEvent.click(showForm.getByRole("button", { name: "Save corrections" }));
    expect(calls).toEqual([
      {
        name: "privacy:correctStreamText",
        args: {
          requestId,
          streamId: show,
          stream: { streamTitle: "Denim live with Sarah Okafor", streamDescription: "" },
        },
      },
    ]);
    await waitFor(async () =>
      expect((await readDoc(convex, show))?.streamTitle).toBe("Denim live with Sarah Okafor"),
    );
  });

  test("an answered request only lists its changes", async () => {
    await convex.run(async (ctx) => {
      await ctx.db.patch(sarah.userId, { name: "Sarah Okafor" });
      await ctx.db.patch(requestId, {
        status: "completed",
        decidedAt: Date.now(),
        corrections: [{ at: Date.now(), what: "Your name", from: "Sarah Seller", to: "Sarah Okafor" }],
      });
    });
    renderPage();
    expect(await screen.findByRole("list", { name: "Changes made" })).toHaveTextContent(
      "Your name: was “Sarah Seller”, now “Sarah Okafor”",
    );
    expect(screen.getByText(/This request has been answered/)).toBeInTheDocument();
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
  });

  test("an email managed by the sign-in service is not a field", async () => {
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "https://example.clerk.accounts.dev");
    renderPage();
    const profile = within(await screen.findByRole("form", { name: "Correct the profile" }));
    expect(profile.queryByRole("textbox", { name: /^Email/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Emails are managed by the sign-in service here/)).toBeInTheDocument();
  });
});
