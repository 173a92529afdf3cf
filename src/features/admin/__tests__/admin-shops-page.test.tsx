import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import type { ShopStatus } from "@convex/lib/constants";
import { convexBackend } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop } from "@/test/convex-seed";
import { AdminShopsPage } from "../admin-shops-page";

const convex = convexBackend();
let calls: SentCall[];

beforeEach(async () => {
  await convex.signInAs("admin");
  calls = sentCalls(convex.client);
});

const DAY = 24 * 3_600_000;

/** A shop with what verification needs, last changed at `updatedAt`, of an owner keyed `key`. */
async function shopOf(
  key: string,
  liveShopName: string,
  status: ShopStatus,
  updatedAt: number,
  extra: { statusReason?: string; ownerName?: string } = {},
): Promise<Id<"liveShops">> {
  const owner = await convex.addUser("seller", { key, name: extra.ownerName ?? `Owner of ${liveShopName}` });
  const id = await seedShop(convex, owner, {
    liveShopName,
    status,
    statusReason: extra.statusReason,
    description: `${liveShopName} sells vintage denim.`,
    categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
    cbsaCodes: ["12420"],
  });
  await convex.run((ctx) => ctx.db.patch(id, { createdAt: updatedAt - DAY, updatedAt }));
  return id;
}

/** The queue: Rosa's Records waiting longest, then Tess's Tees. */
async function seedQueue() {
  const tess = await shopOf("s_new", "Tess's Tees", "pending_verification", Date.UTC(2026, 2, 9, 12));
  const rosa = await shopOf("s_old", "Rosa's Records", "pending_verification", Date.UTC(2026, 2, 1, 12));
  return { rosa, tess };
}

/** Shops already decided, newest first: Sarah's Vintage (active), Fake Finds (suspended, owner gone). */
async function seedDecided() {
  const fake = await shopOf("fake", "Fake Finds", "suspended", Date.UTC(2026, 2, 4, 12), {
    statusReason: "Counterfeit goods reported.",
  });
  const gone = (await readDoc(convex, fake))!.userId;
  await convex.run((ctx) => ctx.db.delete(gone));
  const sarah = await shopOf("sarah", "Sarah's Vintage", "active", Date.UTC(2026, 2, 3, 12), {
    ownerName: "Sarah Seller",
  });
  return { fake, sarah };
}

function renderShops(path = "/dashboard/admin/shops") {
  const router = createMemoryRouter([{ path: "/dashboard/admin/shops", element: <AdminShopsPage /> }], {
    initialEntries: [path],
  });
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
  return router;
}

async function queueItems() {
  return within(await screen.findByRole("list", { name: "Verification queue" })).getAllByRole("listitem");
}

async function shopStatus(id: Id<"liveShops">) {
  return (await readDoc(convex, id))?.status;
}

describe("admin: shops", () => {
  test("the queue comes first, oldest submission first, with what decides each shop", async () => {
    const { rosa } = await seedQueue();
    renderShops();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(["Awaiting verification", "All shops"]);
    const [first, second] = await queueItems();
    expect(within(first).getByRole("heading", { name: "Rosa's Records" })).toBeInTheDocument();
    // With the time, so two submissions of one day are told apart (issue 16 item 9).
    expect(first).toHaveTextContent(/Waiting since Mar 1, 2026, \d{1,2}:\d{2}\s[AP]M/);
    expect(first).toHaveTextContent("Owner of Rosa's Recordss_old@livelocal.test");
    expect(first).toHaveTextContent("Fashion & Apparel: Clothing");
    expect(first).toHaveTextContent("Austin-Round Rock-San Marcos, TX");
    expect(first).toHaveTextContent("Rosa's Records sells vintage denim.");
    expect(within(first).getByRole("link", { name: "Open in the editor: Rosa's Records" })).toHaveAttribute(
      "href",
      `/dashboard/liveshops/${rosa}`,
    );
    expect(within(second).getByRole("heading", { name: "Tess's Tees" })).toBeInTheDocument();
    expect(second).toHaveTextContent("Waiting since Mar 9, 2026");
  });

  test("approving asks first, then sets the shop active and says so", async () => {
    const { rosa } = await seedQueue();
    renderShops();
    await userEvent.click(within((await queueItems())[0]).getByRole("button", { name: "Approve" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve Rosa's Records?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve shop" }));
    expect(calls).toEqual([
      { name: "liveShops:setShopStatus", args: { liveShopId: rosa, status: "active" } },
    ]);
    expect(await screen.findByRole("status")).toHaveTextContent("Rosa's Records is approved and now active.");
    expect(await shopStatus(rosa)).toBe("active");
  });

  test("rejecting needs a reason: nothing is sent without one, and the reason goes to the owner", async () => {
    const { rosa } = await seedQueue();
    renderShops();
    await userEvent.click(within((await queueItems())[0]).getByRole("button", { name: "Reject…" }));
    const dialog = screen.getByRole("dialog", { name: "Reject Rosa's Records?" });
    const reason = within(dialog).getByRole("textbox", { name: "Reason, shown to the shop's owner" });
    expect(reason).toHaveFocus();

    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(reason).toHaveAccessibleDescription(/Give a reason: the shop's owner will read it\./);
    expect(reason).toBeInvalid();
    await userEvent.type(reason, "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(calls).toEqual([]);

    await userEvent.type(reason, "Add photos of the records you sell.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(calls).toEqual([
      {
        name: "liveShops:setShopStatus",
        args: { liveShopId: rosa, status: "draft", reason: "Add photos of the records you sell." },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await readDoc(convex, rosa)).toMatchObject({
      status: "draft",
      statusReason: "Add photos of the records you sell.",
    });
  });

  // The one refusal the server gives a rejection is a shop decided meanwhile, and the live queue then
  // drops its card and the dialog: the page says it instead.
  test("a rejection refused because the shop was decided meanwhile is said on the page", async () => {
    const { tess } = await seedQueue();
    renderShops();
    await userEvent.click(within((await queueItems())[1]).getByRole("button", { name: "Reject…" }));
    const dialog = screen.getByRole("dialog", { name: "Reject Tess's Tees?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Blurry logo.");
    // Another admin sends the shop back first, while this rejection is on its way.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(tess, { status: "draft" });
    });
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(within(dialog).getByRole("button", { name: "Saving…" })).toBeDisabled();
    await release();
    // Whichever comes first, the refusal (shown in the dialog) or the decided shop (which drops the card
    // and its dialog), the page ends up saying it.
    await waitFor(
      () => {
        expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
        expect(screen.getByRole("alert")).toHaveTextContent("The shop is already a draft.");
      },
      { timeout: 3_000 },
    );
  });

  test("all shops: suspend asks for a reason, reinstate for a confirmation; links to page and editor", async () => {
    const { fake, sarah } = await seedDecided();
    renderShops();
    const rows = within(await screen.findByRole("list", { name: "Shops" })).getAllByRole("listitem");
    const [active, suspended] = rows;
    expect(active).toHaveTextContent("Sarah Sellersarah@livelocal.test");
    expect(within(active).getByRole("link", { name: "Public page of Sarah's Vintage" })).toHaveAttribute(
      "href",
      "/live-shop/sarah-s-vintage",
    );
    expect(within(active).getByRole("link", { name: "Editor of Sarah's Vintage" })).toHaveAttribute(
      "href",
      `/dashboard/liveshops/${sarah}`,
    );
    expect(suspended).toHaveTextContent("Reason given: Counterfeit goods reported.");
    expect(suspended).toHaveTextContent("Owner's account deleted");
    // A suspended shop has no public page.
    expect(within(suspended).queryByRole("link", { name: /Public page/ })).not.toBeInTheDocument();

    await userEvent.click(within(active).getByRole("button", { name: "Suspend…" }));
    const dialog = screen.getByRole("dialog", { name: "Suspend Sarah's Vintage?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Selling replicas.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Suspend shop" }));
    await waitFor(async () => expect(await shopStatus(sarah)).toBe("suspended"));

    await userEvent.click(within(suspended).getByRole("button", { name: "Reinstate" }));
    await userEvent.click(screen.getByRole("button", { name: "Reinstate shop" }));
    expect(calls).toEqual([
      {
        name: "liveShops:setShopStatus",
        args: { liveShopId: sarah, status: "suspended", reason: "Selling replicas." },
      },
      { name: "liveShops:setShopStatus", args: { liveShopId: fake, status: "active" } },
    ]);
    await waitFor(async () => expect(await shopStatus(fake)).toBe("active"));
  });

  test("the status filter lives in the address", async () => {
    await seedDecided();
    const router = renderShops("/dashboard/admin/shops?status=suspended");
    const select = screen.getByRole("combobox", { name: "Status" });
    expect(select).toHaveValue("suspended");
    // The list is the server's answer for the status asked.
    const shops = () => within(screen.getByRole("list", { name: "Shops" })).getAllByRole("listitem");
    await waitFor(() => expect(shops()).toHaveLength(1));
    expect(shops()[0]).toHaveTextContent("Fake Finds");
    await userEvent.selectOptions(select, "Every status");
    expect(router.state.location.search).toBe("");
    await waitFor(() => expect(shops()).toHaveLength(2));
    expect(shops()[0]).toHaveTextContent("Sarah's Vintage");
  });

  test("loading and empty states are said in words", async () => {
    await seedDecided();
    renderShops("/dashboard/admin/shops?status=maintenance");
    expect(screen.getByText("Loading the queue…")).toBeInTheDocument();
    expect(screen.getByText("Loading shops…")).toBeInTheDocument();
    expect(await screen.findByText("No shops are waiting for verification.")).toBeInTheDocument();
    expect(await screen.findByText("No shops are temporarily closed.")).toBeInTheDocument();
  });
});

describe("admin: shops, searched and approved together", () => {
  test("several waiting shops are approved at once, after a question naming them", async () => {
    const { rosa, tess } = await seedQueue();
    renderShops();
    const queue = screen.getByRole("region", { name: "Awaiting verification" });
    await queueItems();
    const approve = within(queue).getByRole("button", { name: "Approve selected (0)" });
    expect(approve).toBeDisabled();
    await userEvent.click(within(queue).getByRole("checkbox", { name: "Select Rosa's Records" }));
    await userEvent.click(within(queue).getByRole("checkbox", { name: "Select all 2 shops" }));
    await userEvent.click(within(queue).getByRole("button", { name: "Approve selected (2)" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve 2 shops?" });
    expect(dialog).toHaveTextContent("Rosa's Records");
    expect(dialog).toHaveTextContent("Tess's Tees");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve 2 shops" }));
    expect(calls).toEqual([{ name: "admin:approveShops", args: { liveShopIds: [rosa, tess] } }]);
    expect(await screen.findByText("2 shops approved and now active.")).toBeInTheDocument();
    expect([await shopStatus(rosa), await shopStatus(tess)]).toEqual(["active", "active"]);
  });

  test("a shop left out of a bulk approval is named with why", async () => {
    const { tess } = await seedQueue();
    renderShops();
    await queueItems();
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all 2 shops" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve selected (2)" }));
    // Another admin suspends Tess's Tees while the approval is on its way.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(tess, { status: "suspended" });
    });
    await userEvent.click(screen.getByRole("button", { name: "Approve 2 shops" }));
    await release();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "1 shop approved and now active. Tess's Tees: It is not awaiting verification.",
    );
  });

  test("a search by name or owner's email replaces the list, and stays in the address", async () => {
    const { fake } = await seedDecided();
    const router = renderShops();
    const all = within(screen.getByRole("region", { name: "All shops" }));
    await userEvent.type(
      all.getByRole("searchbox", { name: "Search by shop name or owner's email" }),
      "fake",
    );
    expect(await all.findByText("Matches for “fake”, at most 25.")).toBeInTheDocument();
    await waitFor(() =>
      expect(within(all.getByRole("list", { name: "Shops" })).getAllByRole("listitem")).toHaveLength(1),
    );
    expect(all.getByText("Fake Finds")).toBeInTheDocument();
    // The address follows in an effect, by a navigation of its own: wait for it.
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get("q")).toBe("fake"));
    // Renamed, the shop no longer matches: the live search says so.
    await convex.run((ctx) => ctx.db.patch(fake, { liveShopName: "Genuine Goods" }));
    expect(await all.findByText("No shop's name or owner's email matches “fake”.")).toBeInTheDocument();
  });
});
