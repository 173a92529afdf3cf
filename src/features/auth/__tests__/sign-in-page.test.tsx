import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth, setConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { LOCAL_SESSION_KEY, signOutLocally } from "../local-auth";
import { SignInPage } from "../sign-in-page";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const fetchMock = vi.fn(() =>
  Promise.resolve(Response.json({ token: "t", expiresAt: Date.now() + 3_600_000 })),
);

function renderSignIn(path = "/sign-in") {
  const router = createMemoryRouter(
    [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "*", element: <h1>Landed</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  resetConvexMock();
  setConvexAuth("signedOut");
  signOutLocally();
  fetchMock.mockClear();
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("local sign-in page", () => {
  test("explains that it is a development sign-in", () => {
    renderSignIn();
    expect(screen.getByRole("heading", { name: "Sign in to LiveLocal" })).toBeInTheDocument();
    expect(screen.getByText(/Development sign-in\./)).toBeInTheDocument();
    expect(screen.getByText(/no\s+passwords/)).toBeInTheDocument();
  });

  test("lists the demo admin, the sellers with their shops and the viewer, by role", () => {
    renderSignIn();
    const admin = screen.getByRole("region", { name: "Admin" });
    expect(within(admin).getByRole("button", { name: "Sign in as Avery Chen" })).toHaveAccessibleDescription(
      "admin@livelocal.test Admin",
    );
    const sellers = screen.getByRole("region", { name: "Sellers" });
    expect(
      within(sellers).getByRole("button", { name: "Sign in as Maria Delgado" }),
    ).toHaveAccessibleDescription("maria@livelocal.test Seller · East Austin Denim Co.");
    expect(within(sellers).getAllByRole("button")).toHaveLength(10);
    const viewer = screen.getByRole("region", { name: "Viewer" });
    expect(within(viewer).getByRole("button", { name: "Sign in as Jordan Lee" })).toBeInTheDocument();
  });

  test("signing in as a demo user stores their identity and, once Convex has it, returns to the page they wanted", async () => {
    const router = renderSignIn("/sign-in?redirect=%2Fdashboard%2Fstreams");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as Maria Delgado" }));
    // Leaving before Convex confirms would meet RequireAuth while it still sees a signed-out visitor.
    expect(await screen.findByRole("status")).toHaveTextContent("Signing in…");
    expect(router.state.location.pathname).toBe("/sign-in");
    act(() => setConvexAuth("signedIn"));
    expect(await screen.findByRole("heading", { name: "Landed" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/streams");
    expect(JSON.parse(localStorage.getItem(LOCAL_SESSION_KEY) ?? "null")).toEqual({
      sub: "demo_seller_maria",
      email: "maria@livelocal.test",
      name: "Maria Delgado",
    });
  });

  test("refuses a redirect to another site and goes to the dashboard instead", async () => {
    const router = renderSignIn("/sign-in?redirect=%2F%2Fevil.com");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as Jordan Lee" }));
    act(() => setConvexAuth("signedIn"));
    await screen.findByRole("heading", { name: "Landed" });
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("refuses a bad email with a message beside the field", async () => {
    renderSignIn();
    const email = screen.getByRole("textbox", { name: "Email" });
    await userEvent.type(email, "not-an-email");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as a new user" }));
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });

  test("signs in a new user as local|email, named after the email when no name is given", async () => {
    renderSignIn();
    await userEvent.type(screen.getByRole("textbox", { name: "Email" }), " Sam@Example.com ");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as a new user" }));
    act(() => setConvexAuth("signedIn"));
    await screen.findByRole("heading", { name: "Landed" });
    expect(JSON.parse(localStorage.getItem(LOCAL_SESSION_KEY) ?? "null")).toEqual({
      sub: "local|sam@example.com",
      email: "sam@example.com",
      name: "sam",
    });
  });

  test("shows why signing in failed when the local backend is not answering", async () => {
    fetchMock.mockResolvedValueOnce(new Response("down", { status: 502 }));
    renderSignIn();
    await userEvent.click(screen.getByRole("button", { name: "Sign in as Avery Chen" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/refused to sign you in \(HTTP 502\)/);
    expect(screen.getByRole("button", { name: "Sign in as Avery Chen" })).toBeEnabled();
  });

  test("says when to try again when the local backend limits sign-ins", async () => {
    const message = "Too many sign-ins from this machine in a short time. Try again in 3 seconds.";
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ code: "RateLimited", message }), {
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "3" },
      }),
    );
    renderSignIn();
    await userEvent.click(screen.getByRole("button", { name: "Sign in as Avery Chen" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });
});

describe("signed in", () => {
  test("a signed-in visitor sees who they are and can sign out", async () => {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "admin@livelocal.test",
      name: "Avery Chen",
      role: "admin",
    });
    localStorage.setItem(
      LOCAL_SESSION_KEY,
      JSON.stringify({ sub: "demo_admin", email: "admin@livelocal.test", name: "Avery Chen" }),
    );
    renderSignIn();
    expect(screen.getByRole("heading", { name: "You're signed in" })).toBeInTheDocument();
    expect(screen.getByText(/admin@livelocal\.test/)).toHaveTextContent(
      "as Avery Chen (admin@livelocal.test), admin.",
    );
    expect(screen.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/dashboard");
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });
});
