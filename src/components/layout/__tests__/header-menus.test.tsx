import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { renderInRouter } from "@/test/render-in-router";
import { Header } from "../header";
import { MenuStateProvider } from "../menu-state";

function renderHeader(at = "/") {
  const router = renderInRouter(
    <MenuStateProvider>
      <Header accountControl={<button type="button">Account</button>} />
      <p>Page body</p>
    </MenuStateProvider>,
    { path: "*", at },
  );
  return {
    router,
    mobileButton: screen.getByRole("button", { name: "Menu" }),
    exploreButton: screen.getByRole("button", { name: "Explore" }),
  };
}

const panelOf = (button: HTMLElement) => document.getElementById(button.getAttribute("aria-controls") ?? "");

describe("header menus", () => {
  test("the Explore menu opens with links to both lists and the 11 categories", async () => {
    const { exploreButton } = renderHeader();
    expect(exploreButton).toHaveAttribute("aria-expanded", "false");
    expect(panelOf(exploreButton)).not.toBeVisible();
    await userEvent.click(exploreButton);
    expect(exploreButton).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("navigation", { name: "Explore" });
    expect(panelOf(exploreButton)).toContainElement(menu);
    expect(within(menu).getByRole("link", { name: "Streams" })).toHaveFocus();
    expect(within(menu).getByRole("link", { name: "Live shops" })).toHaveAttribute(
      "href",
      "/explore/live-shops",
    );
    expect(within(menu).getByRole("link", { name: "Toys & Kids" })).toHaveAttribute(
      "href",
      "/explore/streams?category=toys_kids",
    );
    expect(within(menu).getAllByRole("link")).toHaveLength(13);
  });

  test("Escape closes a menu and returns focus to its button", async () => {
    const { exploreButton, mobileButton } = renderHeader();
    await userEvent.click(exploreButton);
    await userEvent.keyboard("{Escape}");
    expect(exploreButton).toHaveAttribute("aria-expanded", "false");
    expect(exploreButton).toHaveFocus();
    await userEvent.click(mobileButton);
    expect(screen.getByRole("navigation", { name: "Menu" })).toBeVisible();
    expect(within(screen.getByRole("navigation", { name: "Menu" })).getAllByRole("link")[0]).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
    expect(mobileButton).toHaveFocus();
  });

  test("the mobile menu toggles the header links and names its panel", async () => {
    const { mobileButton } = renderHeader();
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(mobileButton);
    const menu = screen.getByRole("navigation", { name: "Menu" });
    expect(panelOf(mobileButton)).toContainElement(menu);
    for (const name of ["Streams", "Live shops", "Live now", "Dashboard"]) {
      expect(within(menu).getByRole("link", { name })).toBeInTheDocument();
    }
    await userEvent.click(mobileButton);
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
    expect(panelOf(mobileButton)).not.toBeVisible();
  });

  test("opening the mobile menu closes the Explore menu, and the other way round", async () => {
    const { exploreButton, mobileButton } = renderHeader();
    await userEvent.click(exploreButton);
    await userEvent.click(mobileButton);
    expect(mobileButton).toHaveAttribute("aria-expanded", "true");
    expect(exploreButton).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(exploreButton);
    expect(exploreButton).toHaveAttribute("aria-expanded", "true");
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
  });

  test("a click outside closes the open menu", async () => {
    const { mobileButton } = renderHeader();
    await userEvent.click(mobileButton);
    await userEvent.click(screen.getByText("Page body"));
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
  });

  test("tabbing out of a menu closes it", async () => {
    const { exploreButton } = renderHeader();
    await userEvent.click(exploreButton);
    for (let step = 0; step < 13; step++) await userEvent.tab();
    expect(exploreButton).toHaveAttribute("aria-expanded", "false");
  });

  test("menus close on route change, by a link or otherwise", async () => {
    const { router, mobileButton, exploreButton } = renderHeader();
    await userEvent.click(mobileButton);
    await userEvent.click(
      within(screen.getByRole("navigation", { name: "Menu" })).getByRole("link", { name: "Live shops" }),
    );
    expect(router.state.location.pathname).toBe("/explore/live-shops");
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(mobileButton);
    await act(() => router.navigate("/dashboard"));
    expect(mobileButton).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(exploreButton);
    await act(() => router.navigate("/"));
    expect(exploreButton).toHaveAttribute("aria-expanded", "false");
  });
});

// Issue 17 item 2: "Live now" opened the whole list and was marked current on every explore URL.
describe("Live now", () => {
  const liveNow = () =>
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Live now" });

  test("opens the live view, and is the current page there only", async () => {
    const { router } = renderHeader("/explore/streams");
    expect(liveNow()).toHaveAttribute("href", "/explore/streams?when=live");
    expect(liveNow()).not.toHaveAttribute("aria-current");
    await userEvent.click(liveNow());
    expect(router.state.location.search).toBe("?when=live");
    expect(liveNow()).toHaveAttribute("aria-current", "page");
    for (const elsewhere of ["/explore/streams?when=today", "/explore/live-shops?when=live", "/"]) {
      await act(() => router.navigate(elsewhere));
      expect(liveNow()).not.toHaveAttribute("aria-current");
    }
    // Filters beside the live view keep it current.
    await act(() => router.navigate("/explore/streams?state=TX&when=live"));
    expect(liveNow()).toHaveAttribute("aria-current", "page");
  });

  test("the mobile menu's Live now is marked the same way", async () => {
    const { mobileButton } = renderHeader("/explore/streams?when=live");
    await userEvent.click(mobileButton);
    const menu = screen.getByRole("navigation", { name: "Menu" });
    expect(within(menu).getByRole("link", { name: "Live now" })).toHaveAttribute("aria-current", "page");
    expect(within(menu).getByRole("link", { name: "Streams" })).not.toHaveAttribute("aria-current");
  });
});
