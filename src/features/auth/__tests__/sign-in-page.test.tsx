import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { LocalSessionProvider } from "@/app/provider";
import { convexBackend } from "@/test/convex-backend";
import { fetchFromBackend, storeLocalSession } from "@/test/local-session";
import { LOCAL_SESSION_KEY, LOCAL_TOKEN_ENDPOINT, signOutLocally } from "../local-auth";
import { LOCAL_AUTH_CONFIG_ENDPOINT } from "../local-sign-in-availability";
import { SignInPage } from "../sign-in-page";

const convex = convexBackend();

/** The page's requests to the local backend's sign-in endpoints, answered by the test's backend. */
const toBackend = fetchFromBackend(convex);
/** `POST /local-auth/token`: the backend signs a token for the chosen identity. */
const fetchMock = vi.fn((_input?: unknown, init?: RequestInit) => toBackend(LOCAL_TOKEN_ENDPOINT, init));
/** `GET /local-auth/config`: whether this server offers development sign-in. */
const configMock = vi.fn((init?: RequestInit) => toBackend(LOCAL_AUTH_CONFIG_ENDPOINT, init));

/** The session as the app gives it in local mode: the development sign-in's tokens. */
function LocalSession({ children }: { children: ReactNode }) {
  return <LocalSessionProvider client={convex.client}>{children}</LocalSessionProvider>;
}

function renderSignIn(path = "/sign-in") {
  const router = createMemoryRouter(
    [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "*", element: <h1>Landed</h1> },
    ],
    { initialEntries: [path] },
  );
  render(
    <LocalSession>
      <RouterProvider router={router} />
    </LocalSession>,
  );
  return router;
}

beforeEach(() => {
  signOutLocally();
  fetchMock.mockClear();
  configMock.mockClear();
  vi.stubGlobal("fetch", (input: unknown, init?: RequestInit) =>
    input === LOCAL_AUTH_CONFIG_ENDPOINT ? configMock(init) : fetchMock(input, init),
  );
});

afterEach(() => {
  signOutLocally();
  vi.unstubAllGlobals();
});

describe("local sign-in page", () => {
  test("explains that it is a development sign-in", async () => {
    renderSignIn();
    expect(screen.getByRole("heading", { name: "Sign in to LiveLocal" })).toBeInTheDocument();
    expect(await screen.findByText(/Development sign-in\./)).toBeInTheDocument();
    expect(screen.getByText(/no\s+passwords/)).toBeInTheDocument();
  });

  test("lists the demo admin, the sellers with their shops and the viewer, by role", async () => {
    renderSignIn();
    const admin = await screen.findByRole("region", { name: "Admin" });
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
    await userEvent.click(await screen.findByRole("button", { name: "Sign in as Maria Delgado" }));
    // Leaving before Convex confirms would meet RequireAuth while it still sees a signed-out visitor.
    await waitFor(() => {
      expect(screen.getByRole("status")).toHaveTextContent("Signing in…");
      expect(router.state.location.pathname).toBe("/sign-in");
    });
    expect(await screen.findByRole("heading", { name: "Landed" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/streams");
    expect(JSON.parse(localStorage.getItem(LOCAL_SESSION_KEY) ?? "null")).toEqual({
      sub: "demo_seller_maria",
      email: "maria@livelocal.test",
      name: "Maria Delgado",
    });
    // The token came from the backend, which signed it; the page left once Convex accepted it.
    expect(fetchMock).toHaveBeenCalled();
  });

  test("refuses a redirect to another site and goes to the dashboard instead", async () => {
    const router = renderSignIn("/sign-in?redirect=%2F%2Fevil.com");
    await userEvent.click(await screen.findByRole("button", { name: "Sign in as Jordan Lee" }));
    await screen.findByRole("heading", { name: "Landed" });
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("refuses a bad email with a message beside the field", async () => {
    renderSignIn();
    const email = await screen.findByRole("textbox", { name: "Email" });
    await userEvent.type(email, "not-an-email");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as a new user" }));
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });

  test("signs in a new user as local|email, named after the email when no name is given", async () => {
    renderSignIn();
    await userEvent.type(await screen.findByRole("textbox", { name: "Email" }), " Sam@Example.com ");
    await userEvent.click(screen.getByRole("button", { name: "Sign in as a new user" }));
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
    await userEvent.click(await screen.findByRole("button", { name: "Sign in as Avery Chen" }));
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
    await userEvent.click(await screen.findByRole("button", { name: "Sign in as Avery Chen" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });
});

describe("a server that offers no development sign-in", () => {
  const message =
    "Development sign-in is off on this server: it was started to serve https://livelocal.example (--public-origin). To sign people in on a served deployment, build the app with a Convex deployment and Clerk; without one, only the operator can sign in, in a browser on the server's own machine, with the server started for that machine alone (no --public-origin, --allowed-hosts or --host).";

  test("says in words that sign-in is not available here, and offers no accounts that would fail", async () => {
    configMock.mockResolvedValueOnce(Response.json({ devSignIn: false, message }));
    renderSignIn();
    const notice = await screen.findByRole("region", { name: "Sign-in is not available on this server" });
    expect(notice).toHaveTextContent(message);
    expect(notice).toHaveTextContent(/works without an account/);
    expect(screen.queryByRole("button", { name: /Sign in as/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Development sign-in\./)).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test("says it in its own words when the server gives none", async () => {
    configMock.mockResolvedValueOnce(Response.json({ devSignIn: false }));
    renderSignIn();
    expect(
      await screen.findByRole("region", { name: "Sign-in is not available on this server" }),
    ).toHaveTextContent(/only the operator can sign in/);
  });

  test("while asking the server, says so rather than showing a blank page", async () => {
    let answer: (response: Response) => void = () => undefined;
    configMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    renderSignIn();
    expect(screen.getByRole("status")).toHaveTextContent("Checking sign-in on this server…");
    answer(Response.json({ devSignIn: true, message: null }));
    expect(await screen.findByRole("region", { name: "Admin" })).toBeInTheDocument();
  });
});

describe("signed in", () => {
  test("a signed-in visitor sees who they are and can sign out", async () => {
    storeLocalSession(await convex.addUser("admin", { name: "Avery Chen" }));
    renderSignIn();
    expect(await screen.findByRole("heading", { name: "You're signed in" })).toBeInTheDocument();
    expect(await screen.findByText(/admin@livelocal\.test/)).toHaveTextContent(
      "as Avery Chen (admin@livelocal.test), admin.",
    );
    expect(screen.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/dashboard");
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
    // Convex's session ended too: the page offers the accounts again.
    expect(await screen.findByRole("heading", { name: "Sign in to LiveLocal" })).toBeInTheDocument();
  });
});
