import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { NewLiveShopPage } from "../new-live-shop-page";

vi.mock("convex/react", () => convexReactMock);

function renderNewShop() {
  return renderInRouter(<NewLiveShopPage />, {
    path: "/dashboard/liveshops/new",
    routes: [{ path: "/dashboard/liveshops/:liveShopId", element: <h1>Shop editor</h1> }],
  });
}

const submit = () => userEvent.click(screen.getByRole("button", { name: "Create shop" }));

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, { _id: "u1", email: "sarah@example.com", name: "Sarah", role: "viewer" });
  setQueryResult(api.liveShops.checkSlug, { available: true });
  mutationImpl.current = (name) => Promise.resolve(name === "liveShops:createLiveShop" ? "shop1" : null);
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
    expect(mutationCalls).toEqual([]);
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
    renderNewShop();
    await userEvent.type(screen.getByLabelText("Shop name"), "Sarah's Vintage & Co");
    const slug = screen.getByLabelText("Web address (slug)");
    expect(slug).toHaveValue("sarahs-vintage-co");
    expect(await screen.findByText("This address is free.")).toBeInTheDocument();

    await userEvent.clear(slug);
    await userEvent.type(slug, "sarahs-vintage");
    await userEvent.type(screen.getByLabelText("Shop name"), " Austin");
    expect(slug).toHaveValue("sarahs-vintage");

    setQueryResult(api.liveShops.checkSlug, { available: false });
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
    expect(mutationCalls).toEqual([
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
    expect(router.state.location.pathname).toBe("/dashboard/liveshops/shop1");
  });

  test("a refusal of any part by the server is shown in words, nothing typed is lost, and nothing half-made is kept", async () => {
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "INVALID_ARGUMENT", message: 'Unknown metro area "99999".' }));
    renderNewShop();
    await userEvent.type(screen.getByLabelText("Shop name"), "Corner Bakery");
    await userEvent.type(screen.getByLabelText("Description"), "Bread at dawn.");
    await submit();
    expect(await screen.findByRole("alert")).toHaveTextContent('Unknown metro area "99999".');
    expect(screen.getByLabelText("Shop name")).toHaveValue("Corner Bakery");
    expect(screen.getByLabelText("Description")).toHaveValue("Bread at dawn.");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(mutationCalls.map((call) => call.name)).toEqual(["liveShops:createLiveShop"]);
    // The one mutation wrote nothing: the next save creates the shop, whole.
    expect(screen.getByRole("button", { name: "Create shop" })).toBeEnabled();
  });
});
