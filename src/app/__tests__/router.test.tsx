import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { routes } from "../router";

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe("app routes", () => {
  test("an unknown path shows 'Page not found: {path}' titled Page Not Found", async () => {
    renderAt("/no/such/page");
    expect(await screen.findByText("Page not found: /no/such/page")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
    expect(document.title).toBe("Page Not Found · LiveLocal");
  });

  test("the not-found page leads back home", async () => {
    const router = renderAt("/missing");
    await userEvent.click(await screen.findByRole("link", { name: "Back to home" }));
    expect(await screen.findByRole("heading", { name: "Browse by category" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
  });

  test("home lists all 11 categories with their subcategories", async () => {
    renderAt("/");
    expect(await screen.findByRole("heading", { name: "Fashion & Apparel" })).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(11);
    expect(screen.getByText(/Clothing · Shoes/)).toBeInTheDocument();
  });

  test("the dark mode switch toggles and remembers the choice", async () => {
    renderAt("/");
    const toggle = await screen.findByRole("button", { name: "Dark mode" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(document.documentElement).toHaveClass("dark");
    expect(localStorage.getItem("livelocal:theme")).toBe("dark");
  });
});
