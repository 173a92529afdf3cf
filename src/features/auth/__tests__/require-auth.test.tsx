import { act, render, screen } from "@testing-library/react";
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
import { EnsureUser } from "../current-user";
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
            <RequireAuth>
              <h1>Secret dashboard</h1>
            </RequireAuth>
          </EnsureUser>
        ),
      },
      { path: "/sign-in", element: <h1>Sign-in page</h1> },
      { path: "/", element: <h1>Home page</h1> },
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

  test("says the account was deleted when its row disappears while the page is open", async () => {
    setConvexAuth("signedIn");
    setQueryResult(api.users.viewer, VIEWER);
    renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    act(() => setQueryResult(api.users.viewer, null));
    expect(await screen.findByRole("heading", { name: "Your account was deleted" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("its data were deleted");
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
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
