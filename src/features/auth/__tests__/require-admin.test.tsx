import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth, setConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { RequireAdmin } from "../require-admin";
import { RequireAuth } from "../require-auth";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const user = (role: string) => ({ _id: "u1", email: `${role}@livelocal.test`, name: "Sam Rivera", role });

function renderAdminPage() {
  const router = createMemoryRouter(
    [
      {
        path: "/dashboard",
        element: <RequireAuth />,
        children: [
          {
            path: "admin",
            element: <RequireAdmin />,
            children: [{ path: "users", element: <h1>Users and roles</h1> }],
          },
        ],
      },
      { path: "/sign-in", element: <h1>Sign-in page</h1> },
    ],
    { initialEntries: ["/dashboard/admin/users"] },
  );
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  resetConvexMock();
  setConvexAuth("signedIn");
});

describe("RequireAdmin", () => {
  test("an admin sees the admin page", () => {
    setQueryResult(api.users.viewer, user("admin"));
    renderAdminPage();
    expect(screen.getByRole("heading", { name: "Users and roles" })).toBeInTheDocument();
  });

  test.each(["viewer", "seller"])("a %s sees 403 Forbidden and nothing of the page", (role) => {
    setQueryResult(api.users.viewer, user(role));
    renderAdminPage();
    expect(screen.getByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
    expect(screen.getByText("403")).toBeInTheDocument();
    expect(screen.getByText("This page is for LiveLocal admins.")).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
    expect(document.title).toBe("Forbidden · LiveLocal");
  });

  test("while the session or the user row loads, shows a wait and nothing protected", () => {
    setConvexAuth("loading");
    renderAdminPage();
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
    expect(screen.queryByText("Forbidden")).not.toBeInTheDocument();

    act(() => setConvexAuth("signedIn"));
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
    expect(screen.queryByText("Forbidden")).not.toBeInTheDocument();
  });

  test("losing the admin role while on the page closes it", () => {
    setQueryResult(api.users.viewer, user("admin"));
    renderAdminPage();
    expect(screen.getByRole("heading", { name: "Users and roles" })).toBeInTheDocument();
    act(() => setQueryResult(api.users.viewer, user("viewer")));
    expect(screen.getByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
  });
});
