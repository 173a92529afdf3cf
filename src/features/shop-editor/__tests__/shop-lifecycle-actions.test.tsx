import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQuery } from "convex/react";
import { expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { convexBackend } from "@/test/convex-backend";
import { seedShop } from "@/test/convex-seed";
import { ShopLifecycleActions } from "../shop-lifecycle-actions";
import { SHOP_STATUS_WORDS } from "../shop-status-words";

const convex = convexBackend();

const owner = { isOwner: true, isAdmin: false };

/** The actions over the shop as the owner's live query gives it, as the editor renders them. */
function OwnShop({ liveShopId }: { liveShopId: Id<"liveShops"> }) {
  const shop = useQuery(api.liveShops.getMyShop, { liveShopId });
  if (!shop) return <p>Loading</p>;
  return <ShopLifecycleActions shop={shop} actor={owner} dirty={false} />;
}

test.each(["active", "draft", "suspended"] as const)(
  "'Submitted' goes as soon as the shop's status moves on (an admin's decision: %s)",
  async (decided) => {
    const seller = await convex.signInAs("seller");
    const liveShopId = await seedShop(convex, seller, {
      status: "draft",
      description: "Vintage denim.",
      categories: [{ categoryId: "fashion_apparel", priority: 0 }],
      cbsaCodes: ["12420"],
    });
    render(<OwnShop liveShopId={liveShopId} />, { wrapper: convex.wrapper });
    await userEvent.click(await screen.findByRole("button", { name: "Submit for verification" }));
    // The live query answers with the submitted shop: the sentence stands.
    expect(await screen.findByText("Submitted. An admin will verify your shop soon.")).toBeInTheDocument();
    expect((await convex.run((ctx) => ctx.db.get(liveShopId)))?.status).toBe("pending_verification");

    await convex.run((ctx) => ctx.db.patch(liveShopId, { status: decided }));
    await waitFor(() =>
      expect(screen.queryByText("Submitted. An admin will verify your shop soon.")).not.toBeInTheDocument(),
    );
    expect(screen.getByText(SHOP_STATUS_WORDS[decided])).toBeInTheDocument();
  },
);
