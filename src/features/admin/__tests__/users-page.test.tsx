import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { insertUser } from "@convex/model/users";
import { convexBackend, type Role, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop, seedStream } from "@/test/convex-seed";
import { UsersPage } from "../users-page";

const convex = convexBackend();
let avery: TestPerson;
let calls: SentCall[];

/** A user row joined at `createdAt`. */
async function joined(userId: Id<"users">, createdAt: number) {
  await convex.run((ctx) => ctx.db.patch(userId, { createdAt }));
}

async function jordanAs(role: Role) {
  const jordan = await convex.addUser(role, { key: "jordan", name: "Jordan Lee" });
  await joined(jordan.userId, Date.UTC(2026, 2, 14, 12));
  return jordan;
}

/** Avery (the admin signed in), Jordan (a viewer unless told) and a seller with no name, by email. */
async function seedUsers(jordanRole: Role = "viewer") {
  const jordan = await jordanAs(jordanRole);
  const nameless = await convex.run((ctx) =>
    insertUser(ctx, { clerkId: "test|new", email: "new@example.com", role: "seller" }),
  );
  await joined(nameless, Date.UTC(2026, 5, 1, 12));
  return { jordan };
}

beforeEach(async () => {
  avery = await convex.signInAs("admin", { name: "Avery Chen" });
  await joined(avery.userId, Date.UTC(2026, 0, 5, 12));
  calls = sentCalls(convex.client);
});

function renderUsers(path = "/dashboard/admin/users") {
  const router = createMemoryRouter([{ path: "/dashboard/admin/users", element: <UsersPage /> }], {
    initialEntries: [path],
  });
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
  return router;
}

async function userRows() {
  return within(await screen.findByRole("table", { name: "Users" })).getAllByRole("row");
}

/** The emails the table lists, in order: the server's answer to the filter the page asked with. */
function listedEmails() {
  return within(screen.getByRole("table", { name: "Users" }))
    .getAllByRole("combobox")
    .map((select) => select.getAttribute("aria-label")?.replace("Role of ", ""));
}

describe("users & roles", () => {
  test("lists every user with email, name, role and joined date", async () => {
    await seedUsers();
    renderUsers();
    expect(screen.getByRole("heading", { name: "Users & roles" })).toBeInTheDocument();
    const rows = await userRows();
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
  });

  test("shows a wait while the first page loads", () => {
    renderUsers();
    expect(screen.getByRole("status")).toHaveTextContent("Loading users…");
  });

  test("filters by role and email, keeping both in the address", async () => {
    await seedUsers();
    await convex.addUser("admin", { key: "jorge", name: "Jorge Admin" });
    const router = renderUsers("/dashboard/admin/users?role=seller");
    expect(screen.getByRole("combobox", { name: "Role" })).toHaveValue("seller");
    await userRows();
    expect(listedEmails()).toEqual(["new@example.com"]);

    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Role" }), "Admins");
    await waitFor(() => expect(listedEmails()).toEqual(["admin@livelocal.test", "jorge@livelocal.test"]));
    expect(router.state.location.search).toBe("?role=admin");

    await userEvent.type(screen.getByRole("searchbox", { name: "Email starts with" }), "jor");
    await waitFor(() => expect(listedEmails()).toEqual(["jorge@livelocal.test"]));
    expect(router.state.location.search).toBe("?role=admin&email=jor");
  });

  test("changing a role asks first, saying what the role means, then calls setUserRole", async () => {
    const { jordan } = await seedUsers();
    renderUsers();
    await userEvent.selectOptions(
      await screen.findByRole("combobox", { name: "Role of jordan@livelocal.test" }),
      "Seller",
    );
    const dialog = await screen.findByRole("alertdialog", { name: "Make Jordan Lee a seller?" });
    expect(dialog).toHaveAccessibleDescription(/Sellers open live shops and run their own shows\./);
    expect(dialog).toHaveTextContent("The change is recorded in the activity log.");
    expect(calls).toEqual([]);
    await userEvent.click(within(dialog).getByRole("button", { name: "Make a seller" }));
    expect(calls).toEqual([{ name: "users:setUserRole", args: { userId: jordan.userId, role: "seller" } }]);
    await waitFor(async () => expect((await readDoc(convex, jordan.userId))?.role).toBe("seller"));
  });

  test("making a seller a viewer names her shops and what happens to them; cancelled, nothing changes", async () => {
    const { jordan } = await seedUsers("seller");
    const vintage = await seedShop(convex, jordan, { liveShopName: "Jordan's Vintage" });
    await seedStream(convex, vintage, { streamStatus: "LIVE", streamStartUTC: Date.now() });
    await seedShop(convex, jordan, { liveShopName: "Jordan's Attic", status: "draft" });
    renderUsers();
    const select = await screen.findByRole("combobox", { name: "Role of jordan@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    const dialog = await screen.findByRole("alertdialog", { name: "Make Jordan Lee a viewer?" });
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
    expect(calls).toEqual([]);
    expect(select).toHaveValue("seller");
  });

  test("making a viewer who owns shops a seller again says they come back", async () => {
    const { jordan } = await seedUsers();
    await seedShop(convex, jordan, { liveShopName: "Jordan's Vintage" });
    renderUsers();
    await userEvent.selectOptions(
      await screen.findByRole("combobox", { name: "Role of jordan@livelocal.test" }),
      "Seller",
    );
    const dialog = await screen.findByRole("alertdialog", { name: "Make Jordan Lee a seller?" });
    expect(dialog).toHaveTextContent("Jordan Lee owns 1 live shop:");
    expect(dialog).toHaveTextContent(/the shops come back to public pages as their status allows/);
  });

  test("while the person's shops load, the select says so and no question is asked yet", async () => {
    await seedUsers();
    renderUsers();
    const select = await screen.findByRole("combobox", { name: "Role of jordan@livelocal.test" });
    // The server is busy: the person's shops are not answered until it is free.
    const release = await holdDatabase(convex);
    await userEvent.selectOptions(select, "Admin");
    expect(screen.getByRole("status")).toHaveTextContent("Checking their shops…");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    await release();
    expect(await screen.findByRole("alertdialog", { name: "Make Jordan Lee an admin?" })).toBeInTheDocument();
  });

  test("demoting an admin asks first, and does nothing when cancelled", async () => {
    await seedUsers();
    // Another admin, so Avery may give her own rights up.
    await convex.addUser("admin", { key: "jorge", name: "Jorge Admin" });
    renderUsers();
    const select = await screen.findByRole("combobox", { name: "Role of admin@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    const dialog = await screen.findByRole("alertdialog", { name: "Remove your own admin rights?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls).toEqual([]);
    expect(select).toHaveValue("admin");

    await userEvent.selectOptions(select, "Seller");
    await userEvent.click(await screen.findByRole("button", { name: "Remove admin rights" }));
    expect(calls).toEqual([{ name: "users:setUserRole", args: { userId: avery.userId, role: "seller" } }]);
    await waitFor(async () => expect((await readDoc(convex, avery.userId))?.role).toBe("seller"));
  });

  test("the server's refusal is shown in words beside the row, and the role stays", async () => {
    // Avery is the only admin: the server refuses to take her rights.
    await seedUsers();
    renderUsers();
    const select = await screen.findByRole("combobox", { name: "Role of admin@livelocal.test" });
    await userEvent.selectOptions(select, "Viewer");
    const confirm = await screen.findByRole("button", { name: "Remove admin rights" });
    const release = await holdDatabase(convex);
    await userEvent.click(confirm);
    // While the server decides, the choice shows and the select waits.
    expect(select).toHaveValue("viewer");
    expect(select).toBeDisabled();
    await release();

    const message = "This is the only admin. Make someone else an admin before changing this role.";
    const row = screen.getAllByRole("row")[1];
    expect(await within(row).findByRole("alert")).toHaveTextContent(message);
    expect(select).toHaveValue("admin");
    expect(select).toBeEnabled();
    expect(select).toHaveAccessibleDescription(message);
  });
});
