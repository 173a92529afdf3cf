import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { convexBackend, type Role } from "@/test/convex-backend";
import { RequireAdmin } from "../require-admin";
import { RequireAuth } from "../require-auth";

const convex = convexBackend();

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
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
}

describe("RequireAdmin", () => {
  test("an admin sees the admin page", async () => {
    await convex.signInAs("admin");
    renderAdminPage();
    expect(await screen.findByRole("heading", { name: "Users and roles" })).toBeInTheDocument();
  });

  test.each<Role>(["viewer", "seller"])("a %s sees 403 Forbidden and nothing of the page", async (role) => {
    await convex.signInAs(role);
    renderAdminPage();
    expect(await screen.findByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
    expect(screen.getByText("403")).toBeInTheDocument();
    expect(screen.getByText("This page is for LiveLocal admins.")).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
    expect(document.title).toBe("Forbidden · LiveLocal");
  });

  test("while the session or the user row loads, shows a wait and nothing protected", async () => {
    const admin = await convex.addUser("admin");
    convex.sessionLoading();
    renderAdminPage();
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
    expect(screen.queryByText("Forbidden")).not.toBeInTheDocument();

    // Signed in, the role still on its way: still waiting, never a flash of Forbidden.
    await convex.signInAs(admin);
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Forbidden")).not.toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Users and roles" })).toBeInTheDocument();
  });

  test("losing the admin role while on the page closes it", async () => {
    const admin = await convex.signInAs("admin");
    renderAdminPage();
    expect(await screen.findByRole("heading", { name: "Users and roles" })).toBeInTheDocument();
    await convex.run((ctx) => ctx.db.patch(admin.userId, { role: "viewer" }));
    expect(await screen.findByRole("heading", { name: "Forbidden" })).toBeInTheDocument();
    expect(screen.queryByText("Users and roles")).not.toBeInTheDocument();
  });
});
