import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LOCAL_SESSION_KEY } from "@/features/auth/local-auth";
import { useMockConvexAuth, setConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { appRoutes } from "../router";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

// The layout without the session around it: Convex is mocked.
const routes = appRoutes(async () => ({ Component: (await import("../layout")).AppLayout }));

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
    // The frame is drawn first with a placeholder; the account control comes with the layout's module.
    const signIn = await screen.findByRole("link", { name: "Sign in" });
    const header = screen.getByRole("banner");
    expect(within(header).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(within(header).getByRole("link", { name: "Sign in" })).toBe(signIn);
    expect(signIn).toHaveAttribute("href", `/sign-in?redirect=${encodeURIComponent("/?q=denim")}`);
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
    await userEvent.click(await screen.findByRole("button", { name: /^Account: Maria Delgado/ }));
    expect(screen.getByText("Seller")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("menuitem", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Browse by category" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });
});

describe("settings and the admin screens", () => {
  function signInAs(user: { email: string; name: string; role: string }) {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, { _id: `u_${user.role}`, ...user });
    localStorage.setItem(LOCAL_SESSION_KEY, JSON.stringify({ sub: `demo_${user.role}`, ...user }));
  }
  const AVERY = { email: "admin@livelocal.test", name: "Avery Chen", role: "admin" };
  const JORDAN = { email: "jordan@livelocal.test", name: "Jordan Lee", role: "viewer" };

  test("a signed-in person reaches Settings from the account menu", async () => {
    signInAs(JORDAN);
    const router = renderAt("/");
    await userEvent.click(await screen.findByRole("button", { name: /^Account: Jordan Lee/ }));
    expect(screen.queryByRole("menuitem", { name: "Admin" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("menuitem", { name: "Settings" }));
    // The settings chunk is loaded on first use: allow for a cold transform.
    expect(await screen.findByRole("region", { name: "Profile" }, { timeout: 5000 })).toHaveTextContent(
      "jordan@livelocal.test",
    );
    expect(router.state.location.pathname).toBe("/dashboard/settings");
    const sections = screen.getByRole("navigation", { name: "Dashboard" });
    expect(within(sections).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
    expect(within(sections).queryByRole("link", { name: "Admin" })).not.toBeInTheDocument();
  });

  test.each(["/dashboard/admin", "/dashboard/admin/users", "/dashboard/admin/no-such-page"])(
    "a viewer opening %s gets 403 Forbidden",
    async (path) => {
      signInAs(JORDAN);
      renderAt(path);
      expect(await screen.findByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
      expect(screen.getByText("This page is for LiveLocal admins.")).toBeInTheDocument();
      expect(screen.queryByRole("heading", { name: "Users & roles" })).not.toBeInTheDocument();
    },
  );

  test("an admin's menu leads to the admin console's overview, whose nav reaches users & roles", async () => {
    signInAs(AVERY);
    setQueryResult(api.users.listUsers, [{ _id: "u_admin", createdAt: 0, ...AVERY }]);
    const router = renderAt("/");
    await userEvent.click(await screen.findByRole("button", { name: /^Account: Avery Chen/ }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Admin" }));
    expect(await screen.findByRole("heading", { name: "Admin console" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/admin");
    const sections = screen.getByRole("navigation", { name: "Dashboard" });
    expect(within(sections).getByRole("link", { name: "Admin" })).toHaveAttribute("aria-current", "page");
    const console = screen.getByRole("navigation", { name: "Admin console" });
    await userEvent.click(within(console).getByRole("link", { name: "Users & roles" }));
    expect(await screen.findByRole("heading", { name: "Users & roles" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/admin/users");
    expect(
      within(screen.getByRole("navigation", { name: "Admin console" })).getByRole("link", {
        name: "Users & roles",
      }),
    ).toHaveAttribute("aria-current", "page");
  });
});
