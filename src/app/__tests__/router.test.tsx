import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { LOCAL_SESSION_KEY, signOutLocally } from "@/features/auth/local-auth";
import { convexBackend, type Role } from "@/test/convex-backend";
import { fetchFromBackend, storeLocalSession } from "@/test/local-session";
import { LocalSessionProvider } from "../provider";
import { appRoutes } from "../router";

const convex = convexBackend();
const toBackend = fetchFromBackend(convex);

// The layout in local mode's session, on the test's client (the app's SessionLayout makes its own).
const routes = appRoutes(async () => {
  const { AppLayout } = await import("../layout");
  return {
    Component: () => (
      <LocalSessionProvider client={convex.client}>
        <AppLayout />
      </LocalSessionProvider>
    ),
  };
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  signOutLocally();
  localStorage.clear();
  // The development sign-in's token requests go to the test's backend, as Vite forwards them.
  vi.stubGlobal("fetch", (input: unknown, init?: RequestInit) => {
    if (typeof input === "string" && input.startsWith("/local-auth/")) return toBackend(input, init);
    return Promise.reject(new Error(`No fetch of ${String(input)} in this test`));
  });
});

afterEach(() => {
  signOutLocally();
  vi.unstubAllGlobals();
});

/** A signed-in session of a `role` user named `name` (email `<key>@livelocal.test`), as local mode keeps it. */
async function signInAs(role: Role, key: string, name: string) {
  storeLocalSession(await convex.addUser(role, { key, name }));
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
    await signInAs("seller", "maria", "Maria Delgado");
    const router = renderAt("/dashboard/no-such-page");
    await userEvent.click(await screen.findByRole("button", { name: /^Account: Maria Delgado/ }));
    // The role comes with the user row, a moment after the session's name.
    expect(await screen.findByText("Seller")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("menuitem", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Browse by category" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
    // Convex's session ended too: the header offers to sign in again.
    expect(await screen.findByRole("link", { name: "Sign in" })).toBeInTheDocument();
  });
});

describe("settings and the admin screens", () => {
  test("a signed-in person reaches Settings from the account menu", async () => {
    await signInAs("viewer", "jordan", "Jordan Lee");
    const router = renderAt("/");
    await userEvent.click(await screen.findByRole("button", { name: /^Account: Jordan Lee/ }));
    expect(screen.queryByRole("menuitem", { name: "Admin" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("menuitem", { name: "Settings" }));
    // The settings chunk is loaded on first use, then its data: allow for a cold transform.
    expect(await screen.findByRole("region", { name: "Profile" }, { timeout: 15_000 })).toHaveTextContent(
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
      await signInAs("viewer", "jordan", "Jordan Lee");
      renderAt(path);
      expect(await screen.findByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
      expect(screen.getByText("This page is for LiveLocal admins.")).toBeInTheDocument();
      expect(screen.queryByRole("heading", { name: "Users & roles" })).not.toBeInTheDocument();
    },
  );

  test("an admin's menu leads to the admin console's overview, whose nav reaches users & roles", async () => {
    await signInAs("admin", "admin", "Avery Chen");
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
