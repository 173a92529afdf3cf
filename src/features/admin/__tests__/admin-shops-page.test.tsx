import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { AdminShopsPage } from "../admin-shops-page";

vi.mock("convex/react", () => convexReactMock);

const DAY = 24 * 3_600_000;
const queued = (id: string, liveShopName: string, waitingSince: number) => ({
  _id: id,
  liveShopName,
  slug: id,
  description: `${liveShopName} sells vintage denim.`,
  createdAt: waitingSince - DAY,
  waitingSince,
  owner: { name: `Owner of ${liveShopName}`, email: `${id}@livelocal.test` },
  categories: [{ categoryId: "fashion_apparel", label: "Fashion & Apparel", subcategoryLabel: "Clothing" }],
  areas: [{ cbsaCode: "12420", msaLabel: "Austin-Round Rock-San Marcos, TX" }],
});
// The server sends the queue waiting longest first.
const OLDEST = queued("s_old", "Rosa's Records", Date.UTC(2026, 2, 1, 12));
const NEWER = queued("s_new", "Tess's Tees", Date.UTC(2026, 2, 9, 12));

const ACTIVE = {
  _id: "s_active",
  liveShopName: "Sarah's Vintage",
  slug: "sarahs-vintage",
  status: "active",
  updatedAt: Date.UTC(2026, 2, 3, 12),
  owner: { name: "Sarah Seller", email: "sarah@livelocal.test" },
};
const SUSPENDED = {
  _id: "s_suspended",
  liveShopName: "Fake Finds",
  slug: "fake-finds",
  status: "suspended",
  statusReason: "Counterfeit goods reported.",
  updatedAt: Date.UTC(2026, 2, 4, 12),
  owner: null,
};

function renderShops(path = "/dashboard/admin/shops") {
  const router = createMemoryRouter([{ path: "/dashboard/admin/shops", element: <AdminShopsPage /> }], {
    initialEntries: [path],
  });
  render(<RouterProvider router={router} />);
  return router;
}

function queueItems() {
  return within(screen.getByRole("list", { name: "Verification queue" })).getAllByRole("listitem");
}

beforeEach(() => {
  resetConvexMock();
  convexReactMock.usePaginatedQuery.mockClear();
  setQueryResult(api.users.viewer, { _id: "u_admin", email: "admin@livelocal.test", role: "admin" });
  setQueryResult(api.admin.listVerificationQueue, [OLDEST, NEWER]);
  setQueryResult(api.admin.listShops, [ACTIVE, SUSPENDED]);
});

describe("admin: shops", () => {
  test("the queue comes first, oldest submission first, with what decides each shop", () => {
    renderShops();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(["Awaiting verification", "All shops"]);
    const [first, second] = queueItems();
    expect(within(first).getByRole("heading", { name: "Rosa's Records" })).toBeInTheDocument();
    // With the time, so two submissions of one day are told apart (issue 16 item 9).
    expect(first).toHaveTextContent(/Waiting since Mar 1, 2026, \d{1,2}:\d{2}\s[AP]M/);
    expect(first).toHaveTextContent("Owner of Rosa's Recordss_old@livelocal.test");
    expect(first).toHaveTextContent("Fashion & Apparel: Clothing");
    expect(first).toHaveTextContent("Austin-Round Rock-San Marcos, TX");
    expect(first).toHaveTextContent("Rosa's Records sells vintage denim.");
    expect(within(first).getByRole("link", { name: "Open in the editor: Rosa's Records" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/s_old",
    );
    expect(within(second).getByRole("heading", { name: "Tess's Tees" })).toBeInTheDocument();
    expect(second).toHaveTextContent("Waiting since Mar 9, 2026");
  });

  test("approving asks first, then sets the shop active and says so", async () => {
    renderShops();
    await userEvent.click(within(queueItems()[0]).getByRole("button", { name: "Approve" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve Rosa's Records?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve shop" }));
    expect(mutationCalls).toEqual([
      { name: "liveShops:setShopStatus", args: { liveShopId: "s_old", status: "active" } },
    ]);
    expect(await screen.findByRole("status")).toHaveTextContent("Rosa's Records is approved and now active.");
  });

  test("rejecting needs a reason: nothing is sent without one, and the reason goes to the owner", async () => {
    renderShops();
    await userEvent.click(within(queueItems()[0]).getByRole("button", { name: "Reject…" }));
    const dialog = screen.getByRole("dialog", { name: "Reject Rosa's Records?" });
    const reason = within(dialog).getByRole("textbox", { name: "Reason, shown to the shop's owner" });
    expect(reason).toHaveFocus();

    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(reason).toHaveAccessibleDescription(/Give a reason: the shop's owner will read it\./);
    expect(reason).toBeInvalid();
    await userEvent.type(reason, "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(mutationCalls).toEqual([]);

    await userEvent.type(reason, "Add photos of the records you sell.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(mutationCalls).toEqual([
      {
        name: "liveShops:setShopStatus",
        args: { liveShopId: "s_old", status: "draft", reason: "Add photos of the records you sell." },
      },
    ]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  test("a refused rejection keeps the dialog open with the server's words", async () => {
    let refuse: (error: Error) => void = () => {};
    mutationImpl.current = () => new Promise((_, reject) => (refuse = reject));
    renderShops();
    await userEvent.click(within(queueItems()[1]).getByRole("button", { name: "Reject…" }));
    const dialog = screen.getByRole("dialog", { name: "Reject Tess's Tees?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Blurry logo.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject shop" }));
    expect(within(dialog).getByRole("button", { name: "Saving…" })).toBeDisabled();
    await act(async () => {
      refuse(new ConvexError({ code: "INVALID_TRANSITION", message: "The shop is already a draft." }));
      await Promise.resolve();
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("The shop is already a draft.");
  });

  test("all shops: suspend asks for a reason, reinstate for a confirmation; links to page and editor", async () => {
    renderShops();
    const rows = within(screen.getByRole("list", { name: "Shops" })).getAllByRole("listitem");
    const [active, suspended] = rows;
    expect(active).toHaveTextContent("Sarah Sellersarah@livelocal.test");
    expect(within(active).getByRole("link", { name: "Public page of Sarah's Vintage" })).toHaveAttribute(
      "href",
      "/live-shop/sarahs-vintage",
    );
    expect(within(active).getByRole("link", { name: "Editor of Sarah's Vintage" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/s_active",
    );
    expect(suspended).toHaveTextContent("Reason given: Counterfeit goods reported.");
    expect(suspended).toHaveTextContent("Owner's account deleted");
    // A suspended shop has no public page.
    expect(within(suspended).queryByRole("link", { name: /Public page/ })).not.toBeInTheDocument();

    await userEvent.click(within(active).getByRole("button", { name: "Suspend…" }));
    const dialog = screen.getByRole("dialog", { name: "Suspend Sarah's Vintage?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Selling replicas.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Suspend shop" }));

    await userEvent.click(within(suspended).getByRole("button", { name: "Reinstate" }));
    await userEvent.click(screen.getByRole("button", { name: "Reinstate shop" }));
    expect(mutationCalls).toEqual([
      {
        name: "liveShops:setShopStatus",
        args: { liveShopId: "s_active", status: "suspended", reason: "Selling replicas." },
      },
      { name: "liveShops:setShopStatus", args: { liveShopId: "s_suspended", status: "active" } },
    ]);
  });

  test("the status filter lives in the address", async () => {
    const router = renderShops("/dashboard/admin/shops?status=suspended");
    const select = screen.getByRole("combobox", { name: "Status" });
    expect(select).toHaveValue("suspended");
    const listArgs = () =>
      convexReactMock.usePaginatedQuery.mock.calls
        .filter(([ref]) => getFunctionName(ref) === "admin:listShops")
        .at(-1)?.[1];
    expect(listArgs()).toEqual({ status: "suspended" });
    await userEvent.selectOptions(select, "Every status");
    expect(router.state.location.search).toBe("");
    expect(listArgs()).toEqual({});
  });

  test("loading and empty states are said in words", () => {
    resetConvexMock();
    const { unmount } = render(
      <RouterProvider
        router={createMemoryRouter([{ path: "/", element: <AdminShopsPage /> }], { initialEntries: ["/"] })}
      />,
    );
    expect(screen.getByText("Loading the queue…")).toBeInTheDocument();
    expect(screen.getByText("Loading shops…")).toBeInTheDocument();
    unmount();
    setQueryResult(api.admin.listVerificationQueue, []);
    setQueryResult(api.admin.listShops, []);
    renderShops("/dashboard/admin/shops?status=maintenance");
    expect(screen.getByText("No shops are waiting for verification.")).toBeInTheDocument();
    expect(screen.getByText("No shops are temporarily closed.")).toBeInTheDocument();
  });
});

describe("admin: shops, searched and approved together", () => {
  test("several waiting shops are approved at once, after a question naming them", async () => {
    mutationImpl.current = () => Promise.resolve({ approved: ["s_old", "s_new"], skipped: [] });
    renderShops();
    const queue = screen.getByRole("region", { name: "Awaiting verification" });
    const approve = within(queue).getByRole("button", { name: "Approve selected (0)" });
    expect(approve).toBeDisabled();
    await userEvent.click(within(queue).getByRole("checkbox", { name: "Select Rosa's Records" }));
    await userEvent.click(within(queue).getByRole("checkbox", { name: "Select all 2 shops" }));
    await userEvent.click(within(queue).getByRole("button", { name: "Approve selected (2)" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve 2 shops?" });
    expect(dialog).toHaveTextContent("Rosa's Records");
    expect(dialog).toHaveTextContent("Tess's Tees");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve 2 shops" }));
    expect(mutationCalls).toEqual([
      { name: "admin:approveShops", args: { liveShopIds: ["s_old", "s_new"] } },
    ]);
    expect(await screen.findByText("2 shops approved and now active.")).toBeInTheDocument();
  });

  test("a shop left out of a bulk approval is named with why", async () => {
    mutationImpl.current = () =>
      Promise.resolve({
        approved: ["s_old"],
        skipped: [{ id: "s_new", reason: "It is not awaiting verification." }],
      });
    renderShops();
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all 2 shops" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve selected (2)" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve 2 shops" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "1 shop approved and now active. Tess's Tees: It is not awaiting verification.",
    );
  });

  test("a search by name or owner's email replaces the list, and stays in the address", async () => {
    setQueryResult(api.admin.searchShops, [SUSPENDED]);
    const router = renderShops();
    const all = within(screen.getByRole("region", { name: "All shops" }));
    await userEvent.type(
      all.getByRole("searchbox", { name: "Search by shop name or owner's email" }),
      "fake",
    );
    expect(await all.findByText("Matches for “fake”, at most 25.")).toBeInTheDocument();
    expect(within(all.getByRole("list", { name: "Shops" })).getAllByRole("listitem")).toHaveLength(1);
    expect(all.getByText("Fake Finds")).toBeInTheDocument();
    // The address follows in an effect, by a navigation of its own: wait for it.
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get("q")).toBe("fake"));
    act(() => setQueryResult(api.admin.searchShops, []));
    expect(all.getByText("No shop's name or owner's email matches “fake”.")).toBeInTheDocument();
  });
});
