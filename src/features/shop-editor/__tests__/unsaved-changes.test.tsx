import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test } from "vitest";
import { convexBackend } from "@/test/convex-backend";
import { renderSellerPage } from "@/test/seller-pages";
import { NewLiveShopPage } from "../new-live-shop-page";

const convex = convexBackend();

function renderForm() {
  return renderSellerPage(convex, <NewLiveShopPage />, { path: "/dashboard/liveshops/new" });
}

function unloadIsHeldBack(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

beforeEach(async () => {
  await convex.signInAs("viewer", { name: "Sarah" });
});

describe("unsaved changes", () => {
  test("leaving an untouched form asks nothing", async () => {
    const router = renderForm();
    await userEvent.click(screen.getByRole("link", { name: "Overview" }));
    expect(await screen.findByRole("heading", { name: "Somewhere else" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("leaving with unsaved changes asks first; staying keeps every value", async () => {
    const router = renderForm();
    await userEvent.type(screen.getByLabelText("Shop name"), "Corner Bakery");
    await userEvent.click(screen.getByRole("link", { name: "Overview" }));

    const dialog = screen.getByRole("alertdialog", { name: "Leave without saving?" });
    expect(dialog).toHaveTextContent("Your changes on this page have not been saved.");
    await userEvent.click(screen.getByRole("button", { name: "Stay on this page" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/liveshops/new");
    expect(screen.getByLabelText("Shop name")).toHaveValue("Corner Bakery");

    await userEvent.click(screen.getByRole("link", { name: "Overview" }));
    await userEvent.click(screen.getByRole("button", { name: "Leave without saving" }));
    expect(await screen.findByRole("heading", { name: "Somewhere else" })).toBeInTheDocument();
  });

  test("the browser's back button is held back too", async () => {
    const router = renderSellerPage(convex, <NewLiveShopPage />, {
      path: "/dashboard/liveshops/new",
      at: "/dashboard",
    });
    await router.navigate("/dashboard/liveshops/new");
    await userEvent.type(await screen.findByLabelText("Shop name"), "Corner Bakery");
    await router.navigate(-1);
    expect(await screen.findByRole("alertdialog", { name: "Leave without saving?" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/liveshops/new");
  });

  test("closing or reloading the tab gets the browser's warning only while changes are unsaved", async () => {
    renderForm();
    expect(unloadIsHeldBack()).toBe(false);
    await userEvent.type(screen.getByLabelText("Shop name"), "Corner Bakery");
    expect(unloadIsHeldBack()).toBe(true);
    await userEvent.clear(screen.getByLabelText("Shop name"));
    expect(unloadIsHeldBack()).toBe(false);
  });
});
