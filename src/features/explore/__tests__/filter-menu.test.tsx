import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test } from "vitest";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { convexBackend } from "@/test/convex-backend";
import { renderInRouter } from "@/test/render-in-router";
import { ExploreStreamsPage } from "../explore-streams-page";

// No streams: the page lists nothing, and the menus are what is tested.
const convex = convexBackend();

function renderPage() {
  const router = renderInRouter(
    <convex.wrapper>
      <MenuStateProvider>
        <Header accountControl={null} />
        <ExploreStreamsPage />
      </MenuStateProvider>
    </convex.wrapper>,
    // One element for every explore path, so the menu state outlives a change of path as in the app.
    { path: "/explore/*", at: "/explore/streams" },
  );
  return {
    router,
    filtersButton: screen.getByRole("button", { name: "Filters" }),
    mobileButton: screen.getByRole("button", { name: "Menu" }),
    exploreButton: screen.getByRole("button", { name: "Explore" }),
  };
}

test("the filter menu opens with focus inside and closes with Escape, focus back on its button", async () => {
  const { filtersButton } = renderPage();
  expect(filtersButton).toHaveAttribute("aria-expanded", "false");
  expect(filtersButton).toHaveAttribute("aria-controls", screen.getByRole("region", { name: "Filters" }).id);
  await userEvent.click(filtersButton);
  expect(filtersButton).toHaveAttribute("aria-expanded", "true");
  // Open, it is a modal drawer over the results (Tab stays inside: tests/e2e/accessibility.e2e.ts).
  expect(screen.getByRole("dialog", { name: "Filters" })).toHaveAttribute("aria-modal", "true");
  expect(screen.getByRole("button", { name: "Close filters" })).toHaveFocus();
  await userEvent.keyboard("{Escape}");
  expect(filtersButton).toHaveAttribute("aria-expanded", "false");
  expect(filtersButton).toHaveFocus();
});

test("opening the mobile menu closes the filter menu, and opening the filter menu closes it", async () => {
  const { filtersButton, mobileButton } = renderPage();
  await userEvent.click(filtersButton);
  await userEvent.click(mobileButton);
  expect(mobileButton).toHaveAttribute("aria-expanded", "true");
  expect(filtersButton).toHaveAttribute("aria-expanded", "false");
  await userEvent.click(filtersButton);
  expect(filtersButton).toHaveAttribute("aria-expanded", "true");
  expect(mobileButton).toHaveAttribute("aria-expanded", "false");
});

test("the header's Explore menu and the filter menu close each other too", async () => {
  const { filtersButton, exploreButton } = renderPage();
  await userEvent.click(filtersButton);
  await userEvent.click(exploreButton);
  expect(filtersButton).toHaveAttribute("aria-expanded", "false");
  expect(exploreButton).toHaveAttribute("aria-expanded", "true");
});

test("changing filters keeps the filter menu open; leaving the page closes it", async () => {
  const { router, filtersButton } = renderPage();
  await userEvent.click(filtersButton);
  await userEvent.click(screen.getByRole("checkbox", { name: "Collectibles" }));
  expect(filtersButton).toHaveAttribute("aria-expanded", "true");
  await act(() => router.navigate("/explore/live-shops"));
  expect(filtersButton).toHaveAttribute("aria-expanded", "false");
});
