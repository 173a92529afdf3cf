import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, expect, test, vi } from "vitest";
import { convexReactMock, mutationCalls, resetConvexMock } from "@/test/convex-mock";
import type { Doc } from "@convex/_generated/dataModel";
import type { ShopStatus } from "@convex/lib/constants";
import { ShopLifecycleActions } from "../shop-lifecycle-actions";

vi.mock("convex/react", () => convexReactMock);

beforeEach(resetConvexMock);

function shopIn(status: ShopStatus) {
  return {
    _id: "shop1",
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    description: "Vintage denim.",
    timezone: "America/New_York",
    status,
    categories: [{ categoryId: "fashion_apparel", priority: 0 }],
    cbsaCodes: ["12420"],
  } as unknown as Doc<"liveShops"> & { categories: unknown[]; cbsaCodes: string[] };
}

const owner = { isOwner: true, isAdmin: false };

test.each(["active", "draft", "suspended"] as const)(
  "'Submitted' goes as soon as the shop's status moves on (an admin's decision: %s)",
  async (decided) => {
    const { rerender } = render(<ShopLifecycleActions shop={shopIn("draft")} actor={owner} dirty={false} />);
    await userEvent.click(screen.getByRole("button", { name: "Submit for verification" }));
    expect(mutationCalls).toEqual([
      { name: "liveShops:setShopStatus", args: { liveShopId: "shop1", status: "pending_verification" } },
    ]);
    // The live query answers with the submitted shop: the sentence stands.
    rerender(<ShopLifecycleActions shop={shopIn("pending_verification")} actor={owner} dirty={false} />);
    expect(await screen.findByText("Submitted. An admin will verify your shop soon.")).toBeInTheDocument();

    rerender(<ShopLifecycleActions shop={shopIn(decided)} actor={owner} dirty={false} />);
    expect(screen.queryByText("Submitted. An admin will verify your shop soon.")).not.toBeInTheDocument();
  },
);
