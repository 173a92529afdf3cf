import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { UsersPage } from "../users-page";

vi.mock("convex/react", () => convexReactMock);

const AVERY = {
  _id: "u_admin",
  email: "admin@livelocal.test",
  name: "Avery Chen",
  role: "admin",
  createdAt: Date.UTC(2026, 0, 5, 12),
};
const JORDAN = {
  _id: "u_viewer",
  email: "jordan@livelocal.test",
  name: "Jordan Lee",
  role: "viewer",
  createdAt: Date.UTC(2026, 2, 14, 12),
};
const NAMELESS = {
  _id: "u_new",
  email: "new@example.com",
  role: "seller",
  createdAt: Date.UTC(2026, 5, 1, 12),
};

function renderUsers(path = "/dashboard/admin/users") {
  const router = createMemoryRouter([{ path: "/dashboard/admin/users", element: <UsersPage /> }], {
    initialEntries: [path],
  });
  render(<RouterProvider router={router} />);
  return router;
}

/** The arguments of the latest `usePaginatedQuery` call, without pagination. */
function lastListArgs(): unknown {
  return convexReactMock.usePaginatedQuery.mock.calls.at(-1)?.[1];
}

beforeEach(() => {
  resetConvexMock();
  convexReactMock.usePaginatedQuery.mockClear();
  setQueryResult(api.users.viewer, { _id: "u_admin", email: AVERY.email, name: AVERY.name, role: "admin" });
  setQueryResult(api.users.listUsers, [AVERY, JORDAN, NAMELESS]);
  setQueryResult(api.admin.listUserShops, { shops: [], more: false });
});

describe("users & roles", () => {
  test("lists every user with email, name, role and joined date", () => {
    renderUsers();
    expect(screen.getByRole("heading", { name: "Users & roles" })).toBeInTheDocument();
    const rows = within(screen.getByRole("table", { name: "Users" })).getAllByRole("row");
    expect(rows).toHaveLength(4);
    const jordan = rows[2];
    expect(jordan).toHaveTextContent("Jordan Lee");
    expect(jordan).toHaveTextContent("jordan@livelocal.test");
    expect(jordan).toHaveTextContent("Mar 14, 2026");
    expect(within(jordan).getByRole("combobox", { name: "Role of jordan@livelocal.test" })).toHaveValue(
      "viewer",
    );
    expect(rows[1]).toHaveTextContent("Avery Chen (you)");
    expect(rows[3]).toHaveTextContent("No name");
    expect(lastListArgs()).toEqual({});
  });

  test("shows a wait while the first page loads", () => {
    resetConvexMock();
    renderUsers();
    expect(screen.getByRole("status")).toHaveTextContent("Loading users…");
  });

  test("filters by role and email, keeping both in the address", async () => {
    const router = renderUsers("/dashboard/admin/users?role=seller");
    expect(screen.getByRole("combobox", { name: "Role" })).toHaveValue("seller");
    expect(lastListArgs()).toEqual({ role: "seller" });

    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Role" }), "Admins");
    expect(lastListArgs()).toEqual({ role: "admin" });
    expect(router.state.location.search).toBe("?role=admin");

    await userEvent.type(screen.getByRole("searchbox", { name: "Email starts with" }), "jor");
    await vi.waitFor(() => expect(lastListArgs()).toEqual({ role: "admin", emailPrefix: "jor" }));
    expect(router.state.location.search).toBe("?role=admin&email=jor");
  });

  test("changing a role asks first, saying what the role means, then calls setUserRole", async () => {
    renderUsers();
    await userEvent.selectOptions(
      screen.getByRole("combobox", { name: "Role of jordan@livelocal.test" }),
      "Seller",
    );
    const dialog = screen.getByRole("alertdialog", { name: "Make Jordan Lee a seller?" });
    expect(dialog).toHaveAccessibleDescription(/Sellers open live shops and run their own shows\./);
    expect(dialog).toHaveTextContent("The change is recorded in the activity log.");
    expect(mutationCalls).toEqual([]);
    await userEvent.click(within(dialog).getByRole("button", { name: "Make a seller" }));
    expect(mutationCalls).toEqual([
      { name: "users:setUserRole", args: { userId: "u_viewer", role: "seller" } },
    ]);
  });

  test("making a seller a viewer names her shops and what happens to them; cancelled, nothing changes", async () => {
    setQueryResult(api.users.listUsers, [AVERY, { ...JORDAN, role: "seller" }]);
    setQueryResult(api.admin.listUserShops, {
      shops: [
        { _id: "s1", liveShopName: "Jordan's Vintage", status: "active", liveNow: true },
        { _id: "s2", liveShopName: "Jordan's Attic", status: "draft", liveNow: false },
      ],
      more: false,
    });
    renderUsers();
    const select = screen.getByRole("combobox", { name: "Role of jordan@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    const dialog = screen.getByRole("alertdialog", { name: "Make Jordan Lee a viewer?" });
    expect(dialog).toHaveTextContent("Jordan Lee owns 2 live shops:");
    const shops = within(dialog).getAllByRole("listitem");
    expect(shops.map((item) => item.textContent)).toEqual([
      "Jordan's Vintage (active, a show is live now)",
      "Jordan's Attic (draft)",
    ]);
    expect(dialog).toHaveTextContent(/As a viewer they cannot change them\./);
    expect(dialog).toHaveTextContent(/leave public pages at once, a live show included; nothing is deleted/);
    const confirm = within(dialog).getByRole("button", { name: "Make a viewer" });
    expect(confirm).toHaveClass("bg-red-600");

    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(mutationCalls).toEqual([]);
    expect(select).toHaveValue("seller");
  });

  test("making a viewer who owns shops a seller again says they come back", async () => {
    setQueryResult(api.admin.listUserShops, {
      shops: [{ _id: "s1", liveShopName: "Jordan's Vintage", status: "active", liveNow: false }],
      more: false,
    });
    renderUsers();
    await userEvent.selectOptions(
      screen.getByRole("combobox", { name: "Role of jordan@livelocal.test" }),
      "Seller",
    );
    const dialog = screen.getByRole("alertdialog", { name: "Make Jordan Lee a seller?" });
    expect(dialog).toHaveTextContent("Jordan Lee owns 1 live shop:");
    expect(dialog).toHaveTextContent(/the shops come back to public pages as their status allows/);
  });

  test("while the person's shops load, the select says so and no question is asked yet", async () => {
    resetConvexMock();
    setQueryResult(api.users.viewer, { _id: "u_admin", email: AVERY.email, name: AVERY.name, role: "admin" });
    setQueryResult(api.users.listUsers, [AVERY, JORDAN]);
    renderUsers();
    await userEvent.selectOptions(
      screen.getByRole("combobox", { name: "Role of jordan@livelocal.test" }),
      "Admin",
    );
    expect(screen.getByRole("status")).toHaveTextContent("Checking their shops…");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    act(() => setQueryResult(api.admin.listUserShops, { shops: [], more: false }));
    expect(screen.getByRole("alertdialog", { name: "Make Jordan Lee an admin?" })).toBeInTheDocument();
  });

  test("demoting an admin asks first, and does nothing when cancelled", async () => {
    renderUsers();
    const select = screen.getByRole("combobox", { name: "Role of admin@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    const dialog = screen.getByRole("alertdialog", { name: "Remove your own admin rights?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(mutationCalls).toEqual([]);
    expect(select).toHaveValue("admin");

    await userEvent.selectOptions(select, "Seller");
    await userEvent.click(screen.getByRole("button", { name: "Remove admin rights" }));
    expect(mutationCalls).toEqual([
      { name: "users:setUserRole", args: { userId: "u_admin", role: "seller" } },
    ]);
  });

  test("the server's refusal is shown in words beside the row, and the role stays", async () => {
    let refuse: (error: Error) => void = () => {};
    mutationImpl.current = () => new Promise((_, reject) => (refuse = reject));
    renderUsers();
    const select = screen.getByRole("combobox", { name: "Role of admin@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    await userEvent.click(screen.getByRole("button", { name: "Remove admin rights" }));
    // While the server decides, the choice shows and the select waits.
    expect(select).toHaveValue("viewer");
    expect(select).toBeDisabled();

    const message = "This is the only admin. Make someone else an admin before changing this role.";
    await act(async () => {
      refuse(new ConvexError({ code: "CONFLICT", message }));
      await Promise.resolve();
    });
    const row = screen.getAllByRole("row")[1];
    expect(within(row).getByRole("alert")).toHaveTextContent(message);
    expect(select).toHaveValue("admin");
    expect(select).toBeEnabled();
    expect(select).toHaveAccessibleDescription(message);
  });
});
