import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { getUserByClerkId, recordClerkUserDeleted } from "@convex/model/users";
import { convexBackend } from "@/test/convex-backend";
import { sentCalls } from "@/test/convex-calls";
import { AccountDeletedNotice } from "../account-deleted-notice";
import { EnsureUser } from "../current-user";
import { LOCAL_SESSION_KEY } from "../local-auth";
import { RequireAuth } from "../require-auth";

const convex = convexBackend();

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
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
  return router;
}

/** The mutations the page sends through the client from now on, by name, in order. */
function recordMutationNames() {
  const sent = sentCalls(convex.client);
  return () => sent.map((call) => call.name);
}

/** The user row of a sign-in subject, as the backend holds it now. */
const rowOf = (subject: string) => convex.run((ctx) => getUserByClerkId(ctx, subject));

/** The sign-in of an account deleted before this visit (`restartable`: the sign-in itself lives on). */
async function deletedAccount(restartable: boolean) {
  const person = await convex.addUser("viewer");
  await convex.run(async (ctx) => {
    await ctx.db.delete(person.userId);
    await recordClerkUserDeleted(ctx, person.subject, Date.now(), Date.now(), restartable);
  });
  return person;
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe("RequireAuth", () => {
  test("someone who signs out on a protected page goes home, not to sign-in", async () => {
    await convex.signInAs("viewer");
    const router = renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    act(() => convex.signOut());
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
    convex.sessionLoading();
    const router = renderProtected("/dashboard");
    expect(screen.getByRole("status")).toHaveTextContent("Checking your sign-in…");
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("signed in but without a user row yet still counts as loading, until the row is made", async () => {
    const person = await convex.signInAs("viewer", { row: false });
    renderProtected("/dashboard");
    // Seen in one look: the wait, and nothing protected beside it.
    await waitFor(() => {
      expect(screen.getByRole("status")).toHaveTextContent("Setting up your account…");
      expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    });
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    expect((await rowOf(person.subject))?.email).toBe(person.email);
  });

  test("renders the page for a signed-in person, creating their user row once", async () => {
    const person = await convex.signInAs("viewer", { row: false });
    const mutations = recordMutationNames();
    renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    expect(mutations()).toEqual(["users:ensureUser"]);
    expect(await rowOf(person.subject)).not.toBeNull();
  });

  test("a row that disappears while the page is open ends the session and says why", async () => {
    const person = await convex.signInAs("viewer");
    localStorage.setItem(
      LOCAL_SESSION_KEY,
      JSON.stringify({ sub: person.subject, email: person.email, name: person.name }),
    );
    const mutations = recordMutationNames();
    const router = renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    await convex.run((ctx) => ctx.db.delete(person.userId));
    expect(await screen.findByRole("heading", { name: "Your account was deleted" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
    // The session ends at once: a reload finds nobody signed in, so no account is made again.
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
    act(() => convex.signOut());
    expect(await screen.findByRole("heading", { name: "Home page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByRole("alert")).toHaveTextContent("its data were deleted, as you asked");
    expect(mutations()).toEqual(["users:ensureUser"]);
    expect(await rowOf(person.subject)).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("signing in again with a deleted account's sign-in offers a new account, and only makes one when asked", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const person = await deletedAccount(true);
    await convex.signInAs({ ...person, userId: "" as Id<"users"> });
    const mutations = recordMutationNames();
    renderProtected("/dashboard");
    expect(await screen.findByRole("heading", { name: "This account was deleted" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("was deleted, as you asked.");
    expect(mutations()).toEqual(["users:ensureUser"]);
    expect(await rowOf(person.subject)).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Start a new account" }));
    expect(await screen.findByRole("heading", { name: "Secret dashboard" })).toBeInTheDocument();
    expect(mutations()).toEqual(["users:ensureUser", "users:startNewAccount"]);
    const fresh = await rowOf(person.subject);
    expect(fresh?._id).not.toBe(person.userId);
    expect(fresh?.email).toBe(person.email);
  });

  test("a deleted account whose sign-in is gone offers no new account", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const person = await deletedAccount(false);
    await convex.signInAs({ ...person, userId: "" as Id<"users"> });
    renderProtected("/dashboard");
    expect(await screen.findByRole("alert")).toHaveTextContent("Sign up again");
    expect(screen.queryByRole("button", { name: "Start a new account" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
  });

  test("says so, with a way out, when the account cannot be created", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    // A first sign-in whose token carries no email address: no account can be made for it.
    const noEmail = { userId: "" as Id<"users">, subject: "test|no-email", email: "", name: "No Email" };
    await convex.signInAs(noEmail);
    renderProtected("/dashboard");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your sign-in has no usable email address; add one to continue.",
    );
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByText("Secret dashboard")).not.toBeInTheDocument();
  });
});
