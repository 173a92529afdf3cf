import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test, vi } from "vitest";
import { AccountMenu } from "../account-menu";
import { initialsOf } from "../avatar";

const AVERY = { name: "Avery Chen", email: "admin@livelocal.test", roleLabel: "Admin" };

function renderMenu(
  onSignOut = vi.fn(),
  { showAdmin = false, avatarUrl = undefined as string | undefined } = {},
) {
  const { container } = render(
    <MemoryRouter>
      <p>Elsewhere on the page</p>
      <AccountMenu user={{ ...AVERY, avatarUrl }} showAdmin={showAdmin} onSignOut={onSignOut} />
    </MemoryRouter>,
  );
  return { onSignOut, container, trigger: screen.getByRole("button", { name: /^Account: Avery Chen/ }) };
}

describe("AccountMenu", () => {
  test("shows initials when there is no picture", () => {
    const { trigger } = renderMenu();
    expect(screen.getByText("AC")).toBeInTheDocument();
    // WCAG 2.5.3: the visible initials are part of the button's name.
    expect(trigger).toHaveAccessibleName("Account: Avery Chen AC");
    expect(initialsOf("Jordan")).toBe("J");
    expect(initialsOf("Rosa María Martinez")).toBe("RM");
  });

  test("a picture that fails to load falls back to initials, as in settings (issue 16 item 9)", () => {
    const { container, trigger } = renderMenu(vi.fn(), { avatarUrl: "https://example.com/gone.png" });
    expect(trigger).toHaveAccessibleName("Account: Avery Chen");
    const picture = container.querySelector("img");
    expect(picture).toHaveAttribute("src", "https://example.com/gone.png");
    expect(screen.queryByText("AC")).not.toBeInTheDocument();
    fireEvent.error(picture!);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByText("AC")).toBeInTheDocument();
    expect(trigger).toHaveAccessibleName("Account: Avery Chen AC");
  });

  test("opens with who is signed in, and moves focus to the first item", async () => {
    const { trigger } = renderMenu();
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("menu", { name: "Account" })).toBeInTheDocument();
    expect(screen.getByText("admin@livelocal.test")).toBeInTheDocument();
    expect(screen.getByText("Admin")).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Dashboard" })).toHaveFocus();
  });

  test("arrow keys move between items; Escape closes and returns focus to the button", async () => {
    const { trigger } = renderMenu();
    await userEvent.click(trigger);
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitem", { name: "Watch list" })).toHaveFocus();
    await userEvent.keyboard("{End}");
    expect(screen.getByRole("menuitem", { name: "Sign out" })).toHaveFocus();
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitem", { name: "Dashboard" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(trigger).toHaveFocus();
  });

  test("leads to the dashboard, the watch list and settings; the Admin entry only for admins", async () => {
    const { trigger } = renderMenu();
    await userEvent.click(trigger);
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual(["Dashboard", "Watch list", "Settings", "Sign out"]);
    expect(screen.getByRole("menuitem", { name: "Watch list" })).toHaveAttribute("href", "/watch-list");
    expect(screen.getByRole("menuitem", { name: "Settings" })).toHaveAttribute("href", "/dashboard/settings");
    expect(screen.queryByRole("menuitem", { name: "Admin" })).not.toBeInTheDocument();
  });

  test("an admin's menu has an Admin entry", async () => {
    const { trigger } = renderMenu(vi.fn(), { showAdmin: true });
    await userEvent.click(trigger);
    expect(screen.getByRole("menuitem", { name: "Admin" })).toHaveAttribute("href", "/dashboard/admin");
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual([
      "Dashboard",
      "Watch list",
      "Settings",
      "Admin",
      "Sign out",
    ]);
  });

  test("a click outside closes it", async () => {
    const { trigger } = renderMenu();
    await userEvent.click(trigger);
    await userEvent.click(screen.getByText("Elsewhere on the page"));
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  test("opens from the keyboard and signs out", async () => {
    const { trigger, onSignOut } = renderMenu();
    trigger.focus();
    await userEvent.keyboard("{Enter}");
    await userEvent.keyboard("{End}{Enter}");
    expect(onSignOut).toHaveBeenCalledOnce();
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });
});
