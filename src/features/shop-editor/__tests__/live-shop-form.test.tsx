import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test } from "vitest";
import { insertLiveShop } from "@convex/model/liveShops";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { seedShop } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { NewLiveShopPage } from "../new-live-shop-page";

const convex = convexBackend();

function renderNewShop() {
  return renderInRouter(
    <convex.wrapper>
      <NewLiveShopPage />
    </convex.wrapper>,
    {
      path: "/dashboard/liveshops/new",
      routes: [{ path: "/dashboard/liveshops/:liveShopId", element: <h1>Shop editor</h1> }],
    },
  );
}

const submit = () => userEvent.click(screen.getByRole("button", { name: "Create shop" }));

let sarah: TestPerson;
let calls: SentCall[];

beforeEach(async () => {
  // A viewer opening her first shop (it makes her a seller).
  sarah = await convex.signInAs("viewer", { key: "sarah", name: "Sarah" });
  calls = sentCalls(convex.client);
});

describe("the live shop form", () => {
  test("required fields are named before anything is sent, and the first one gets focus", async () => {
    renderNewShop();
    await submit();
    expect(screen.getByText("Shop name is required.")).toBeInTheDocument();
    expect(screen.getByText("Slug is required.")).toBeInTheDocument();
    expect(screen.getByLabelText("Shop name")).toHaveFocus();
    expect(screen.getByLabelText("Shop name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("alert")).toHaveTextContent("Fix the 2 marked fields before saving.");
    expect(calls).toEqual([]);
  });

  test("long fields count their characters and say when they are over the limit", async () => {
    renderNewShop();
    const headline = screen.getByLabelText("Headline (optional)");
    expect(screen.getByText("0/200")).toBeInTheDocument();
    await userEvent.click(headline);
    await userEvent.paste("x".repeat(201));
    expect(screen.getByText("201/200")).toBeInTheDocument();
    expect(screen.queryByText("Headline must be at most 200 characters.")).not.toBeInTheDocument();
    await userEvent.tab();
    expect(screen.getByText("Headline must be at most 200 characters.")).toBeInTheDocument();
    expect(screen.getByText("0/5,000")).toBeInTheDocument();
  });

  test("suggests the slug from the name until the owner edits it, and checks it is free", async () => {
    const other = await convex.addUser("seller", { key: "other" });
    await seedShop(convex, other, { liveShopName: "Sarahs Vintage" });
    renderNewShop();
    await userEvent.type(screen.getByLabelText("Shop name"), "Sarah's Vintage & Co");
    const slug = screen.getByLabelText("Web address (slug)");
    expect(slug).toHaveValue("sarahs-vintage-co");
    expect(await screen.findByText("This address is free.")).toBeInTheDocument();

    // Another seller's shop has this one.
    await userEvent.clear(slug);
    await userEvent.type(slug, "sarahs-vintage");
    await userEvent.type(screen.getByLabelText("Shop name"), " Austin");
    expect(slug).toHaveValue("sarahs-vintage");
    expect(await screen.findByText("This address is already taken; try another.")).toBeInTheDocument();
  });

  test("a 100-character slug wraps in its page preview instead of widening the form", async () => {
    renderNewShop();
    const slug = "a".repeat(100);
    await userEvent.click(screen.getByLabelText("Web address (slug)"));
    await userEvent.paste(slug);
    // jsdom lays nothing out: the preview must be allowed to break inside a word with no hyphen.
    const preview = screen.getByText(`Your shop's page: /live-shop/${slug}`, { exact: false });
    expect(preview).toHaveClass("[overflow-wrap:anywhere]");
  });

  test("warns when white text on a theme colour is hard to read", async () => {
    renderNewShop();
    const theme = screen.getByLabelText("Theme colour (optional)");
    await userEvent.type(theme, "#fde047");
    expect(screen.getByText(/Low contrast: white text on this colour is 1\.\d:1/)).toBeInTheDocument();
    await userEvent.clear(theme);
    await userEvent.type(theme, "#14532d");
    expect(screen.queryByText(/Low contrast/)).not.toBeInTheDocument();
    expect(screen.getByLabelText("Theme colour picker")).toHaveValue("#14532d");
  });

  test("previews an image only once its link passes the schema", async () => {
    renderNewShop();
    const banner = screen.getByLabelText("Banner image (optional)");
    await userEvent.type(banner, "javascript:alert(1)");
    expect(screen.queryByRole("img", { name: "Banner image preview" })).not.toBeInTheDocument();
    await userEvent.clear(banner);
    await userEvent.type(banner, "https://example.com/banner.jpg");
    expect(screen.getByRole("img", { name: "Banner image preview" })).toHaveAttribute(
      "src",
      "https://example.com/banner.jpg",
    );
  });

  test("the logo, banner and cover may be uploaded (for the person opening the shop); product images are links", async () => {
    renderNewShop();
    for (const label of ["Banner image", "Cover image", "Logo"]) {
      expect(screen.getByRole("button", { name: `Upload a picture for ${label}` })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole("button", { name: /add product/i }));
    expect(screen.getAllByRole("button", { name: /^Upload a picture/ })).toHaveLength(3);
  });

  test("creates the shop with the parsed values, its categories and metro areas, in one mutation", async () => {
    const router = renderNewShop();
    await userEvent.type(screen.getByLabelText("Shop name"), "  Sarah's Vintage ");
    await userEvent.type(screen.getByLabelText("Description"), "Vintage denim, live twice a week.");
    await userEvent.selectOptions(screen.getByLabelText("Time zone"), "America/Chicago");
    await userEvent.click(screen.getByRole("button", { name: "Spanish" }));

    await userEvent.click(screen.getByRole("button", { name: "Add a question" }));
    await userEvent.type(screen.getByLabelText("Question"), "Do you ship?");
    await userEvent.type(screen.getByLabelText("Answer"), "Yes, across the US.");
    await userEvent.click(screen.getByRole("button", { name: "Add a question" }));
    const second = screen.getByRole("group", { name: "Question 2" });
    await userEvent.type(within(second).getByLabelText("Question"), "Pick-up?");
    await userEvent.type(within(second).getByLabelText("Answer"), "Saturdays.");
    await userEvent.click(screen.getByRole("button", { name: "Move question 2 up" }));

    await userEvent.click(screen.getByRole("button", { name: "Add product" }));
    await userEvent.type(screen.getByLabelText("Name"), "501 jeans");
    await userEvent.type(screen.getByLabelText("Price"), "24.50");

    await userEvent.click(screen.getByRole("button", { name: "Add category" }));
    await userEvent.selectOptions(screen.getByLabelText("Category"), "fashion_apparel");
    await userEvent.selectOptions(screen.getByLabelText("Subcategory"), "clothing");
    await userEvent.type(screen.getByRole("combobox", { name: "Metro areas served" }), "austin");
    await userEvent.click(screen.getByRole("option", { name: "Austin-Round Rock-San Marcos, TX" }));
    expect(
      screen.getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }),
    ).toBeInTheDocument();

    await submit();
    expect(calls).toEqual([
      {
        name: "liveShops:createLiveShop",
        args: {
          shop: {
            liveShopName: "Sarah's Vintage",
            slug: "sarahs-vintage",
            description: "Vintage denim, live twice a week.",
            faqSection: [
              { question: "Pick-up?", answer: "Saturdays." },
              { question: "Do you ship?", answer: "Yes, across the US." },
            ],
            timezone: "America/Chicago",
            languages: ["en", "es"],
            products: [{ id: expect.any(String) as string, name: "501 jeans", price: "24.50" }],
            schemaType: "Organization",
          },
          categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
          cbsaCodes: ["12420"],
        },
      },
    ]);
    expect(await screen.findByRole("heading", { name: "Shop editor" })).toBeInTheDocument();
    const [created] = await convex.run((ctx) =>
      ctx.db
        .query("liveShops")
        .withIndex("by_userId", (q) => q.eq("userId", sarah.userId))
        .collect(),
    );
    expect(router.state.location.pathname).toBe(`/dashboard/liveshops/${created._id}`);
    expect(created).toMatchObject({ liveShopName: "Sarah's Vintage", status: "draft" });
    expect((await convex.run((ctx) => ctx.db.get(sarah.userId)))?.role).toBe("seller");
  });

  test("a refusal of any part by the server is shown in words, nothing typed is lost, and nothing half-made is kept", async () => {
    renderNewShop();
    await userEvent.type(screen.getByLabelText("Shop name"), "Corner Bakery");
    await userEvent.type(screen.getByLabelText("Description"), "Bread at dawn.");
    expect(await screen.findByText("This address is free.")).toBeInTheDocument();
    // Another seller takes the address while this shop is on its way.
    const other = await convex.addUser("seller", { key: "other" });
    const release = await holdDatabase(convex, async (ctx) => {
      await insertLiveShop(ctx, {
        liveShopName: "Corner Bakery",
        slug: "corner-bakery",
        userId: other.userId,
      });
    });
    await submit();
    await release();
    // The refusal names the field it is about, which is marked.
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
        'The address "corner-bakery" is taken by another shop. Choose another.',
        "Fix the marked field before saving.",
      ]),
    );
    expect(screen.getByLabelText("Web address (slug)")).toBeInvalid();
    expect(screen.getByLabelText("Shop name")).toHaveValue("Corner Bakery");
    expect(screen.getByLabelText("Description")).toHaveValue("Bread at dawn.");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(calls.map((call) => call.name)).toEqual(["liveShops:createLiveShop"]);
    // The one mutation wrote nothing: she is still a viewer with no shop, and may save again.
    expect((await convex.run((ctx) => ctx.db.get(sarah.userId)))?.role).toBe("viewer");
    expect(screen.getByRole("button", { name: "Create shop" })).toBeEnabled();
  });
});
