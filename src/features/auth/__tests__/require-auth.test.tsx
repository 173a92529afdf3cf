import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth, setConvexAuth } from "@/test/convex-auth-mock";
import { ConvexError } from "convex/values";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { AccountDeletedNotice } from "../account-deleted-notice";
import { EnsureUser } from "../current-user";
import { LOCAL_SESSION_KEY } from "../local-auth";
import { RequireAuth } from "../require-auth";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const VIEWER = { _id: "u1", email: "viewer@livelocal.test", name: "Jordan Lee", role: "viewer" };

function renderProtected(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: "/dashboard/*",
        element: (
          <EnsureUser>
            <AccountDeletedNotice />
            <RequireAuth>
              <h1>Secret dashboard</h1>
            </RequireAuth>
          </EnsureUser>
        ),
      },
      { path: "/sign-in", element: <h1>Sign-in page</h1> },
      {
        path: "/",
        element: (
          <EnsureUser>
            <AccountDeletedNotice />
            <h1>Home page</h1>
          </EnsureUser>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  resetConvexMock();
  setConvexAuth("signedOut");
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("RequireAuth", () => {
  test("someone who signs out on a protected page goes home, not to sign-in", async () => {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, VIEWER);
    const router = renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    act(() => setConvexAuth("signedOut"));
    expect(await screen.findByRole("heading", { name: "Home page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
  });

  test("sends a signed-out visitor to sign in, remembering the page and its query", async () => {
    const router = renderProtected("/dashboard/streams?status=LIVE");
    expect(await screen.findByRole("heading", { name: "Sign-in page" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(
      "/dashboard/streams?status=LIVE",
    );
    // Replaced, so Back does not return to the page that bounced them.
    expect(router.state.historyAction).toBe("REPLACE");
  });

  test("shows a loading state, and nothing protected, while the session is checked", () => {
    setConvexAuth("loading");
    const router = renderProtected("/dashboard");
    expect(screen.getByRole("status")).toHaveTextContent("Checking your sign-in…");
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("signed in but without a user row yet still counts as loading", () => {
    setConvexAuth("signedIn");
    renderProtected("/dashboard");
    expect(screen.getByRole("status")).toHaveTextContent("Setting up your account…");
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
  });

  test("renders the page for a signed-in person, creating their user row once", () => {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, VIEWER);
    renderProtected("/dashboard");
    expect(screen.getByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    expect(mutationCalls.filter((call) => call.name === "users:ensureUser")).toHaveLength(1);
  });

  test("a row that disappears while the page is open ends the session and says why", async () => {
    localStorage.setItem(
      LOCAL_SESSION_KEY,
      JSON.stringify({ sub: "local|viewer", email: VIEWER.email, name: VIEWER.name }),
    );
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, VIEWER);
    const router = renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    act(() => setQueryResult(api.users.viewer, null));
    expect(await screen.findByRole("heading", { name: "Your account was deleted" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    // The session ends at once: a reload finds nobody signed in, so no account is made again.
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
    act(() => setConvexAuth("signedOut"));
    expect(await screen.findByRole("heading", { name: "Home page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByRole("alert")).toHaveTextContent("its data were deleted, as you asked");
    expect(mutationCalls.map((call) => call.name)).toEqual(["users:ensureUser"]);
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("signing in again with a deleted account's sign-in offers a new account, and only makes one when asked", async () => {
    setConvexAuth("signedIn");
    vi.spyOn(console, "error").mockImplementation(() => {});
    mutationImpl.current = (name) =>
      name === "users:ensureUser"
        ? Promise.reject(
            new ConvexError({
              code: "ACCOUNT_DELETED",
              message: "Your LiveLocal account was deleted, as you asked.",
              restartable: true,
            }),
          )
        : Promise.resolve("u2");
    renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "This account was deleted" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("was deleted, as you asked.");
    expect(mutationCalls.map((call) => call.name)).toEqual(["users:ensureUser"]);
    await userEvent.click(screen.getByRole("button", { name: "Start a new account" }));
    expect(mutationCalls.map((call) => call.name)).toEqual(["users:ensureUser", "users:startNewAccount"]);
    expect(await screen.findByRole("status")).toHaveTextContent("Setting up your account…");
    act(() => setQueryResult(api.users.viewer, { ...VIEWER, _id: "u2" }));
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
  });

  test("a deleted account whose sign-in is gone offers no new account", async () => {
    setConvexAuth("signedIn");
    vi.spyOn(console, "error").mockImplementation(() => {});
    mutationImpl.current = () =>
      Promise.reject(
        new ConvexError({
          code: "ACCOUNT_DELETED",
          message: "This account was deleted. Sign up again to start a new account.",
          restartable: false,
        }),
      );
    renderProtected("/dashboard");
    expect(await screen.findByRole("alert")).toHaveTextContent("Sign up again");
    expect(screen.queryByRole("button", { name: "Start a new account" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
  });

  test("says so, with a way out, when the account cannot be created", async () => {
    setConvexAuth("signedIn");
    vi.spyOn(console, "error").mockImplementation(() => {});
    mutationImpl.current = () =>
      Promise.reject(
        new ConvexError({ code: "INVALID_ARGUMENT", message: "Your sign-in has no email address." }),
      );
    renderProtected("/dashboard");
    expect(await screen.findByRole("alert")).toHaveTextContent("Your sign-in has no email address.");
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
  });
});
