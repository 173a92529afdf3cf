import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LOCAL_SESSION_KEY } from "@/features/auth/local-auth";
import { useMockConvexAuth, setConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { routes } from "../router";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  resetConvexMock();
  setConvexAuth("signedOut");
  localStorage.clear();
});

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

describe("sign-in and the dashboard", () => {
  test.each(["/dashboard", "/dashboard/streams", "/dashboard/no-such-page"])(
    "a signed-out visitor opening %s is sent to sign in and told where they were going",
    async (path) => {
      const router = renderAt(path);
      expect(await screen.findByRole("heading", { name: "Sign in to LiveLocal" })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe("/sign-in");
      expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(path);
    },
  );

  test("the header shows Dashboard to everyone and a Sign in link that comes back here", async () => {
    renderAt("/?q=denim");
    const header = await screen.findByRole("banner");
    expect(within(header).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(within(header).getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      `/sign-in?redirect=${encodeURIComponent("/?q=denim")}`,
    );
  });

  test("signed in, the header's account menu names the person and signs out to home", async () => {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "maria@livelocal.test",
      name: "Maria Delgado",
      role: "seller",
    });
    localStorage.setItem(
      LOCAL_SESSION_KEY,
      JSON.stringify({ sub: "demo_seller_maria", email: "maria@livelocal.test", name: "Maria Delgado" }),
    );
    const router = renderAt("/dashboard/no-such-page");
    await userEvent.click(await screen.findByRole("button", { name: "Account: Maria Delgado" }));
    expect(screen.getByText("Seller")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("menuitem", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Browse by category" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });
});
