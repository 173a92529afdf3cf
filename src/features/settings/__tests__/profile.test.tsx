import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { LIMITS } from "@convex/lib/validation";
import { convexReactMock, mutationCalls, resetConvexMock } from "@/test/convex-mock";
import { SettingsPage } from "../settings-page";
import { signedInWith } from "./fixtures";

vi.mock("convex/react", () => convexReactMock);

function renderProfile() {
  render(
    <MemoryRouter initialEntries={["/dashboard/settings"]}>
      <SettingsPage />
    </MemoryRouter>,
  );
  return screen.getByRole("region", { name: "Profile" });
}

beforeEach(() => {
  resetConvexMock();
});

describe("profile picture", () => {
  test("without a picture, initials are shown and there is nothing to remove", () => {
    signedInWith();
    const profile = renderProfile();
    expect(profile).toHaveTextContent("MD");
    expect(within(profile).queryByRole("button", { name: "Remove picture" })).not.toBeInTheDocument();
    expect(within(profile).getByRole("button", { name: "Save picture" })).toBeDisabled();
  });

  test("a typed link is previewed and saved", async () => {
    signedInWith();
    const profile = renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    await userEvent.type(field, "https://example.com/maria.png");
    expect(profile.querySelector("img")).toHaveAttribute("src", "https://example.com/maria.png");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(mutationCalls).toEqual([
      { name: "settings:setAvatar", args: { avatar: "https://example.com/maria.png" } },
    ]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(profile).getByRole("status")).toHaveTextContent("Saved — your new picture is showing."),
    );
  });

  test("a link that is not http(s) is refused before sending, and not previewed", async () => {
    signedInWith();
    const profile = renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    await userEvent.type(field, "javascript:alert(1)");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining("Only http:// and https:// links are allowed."),
    );
    expect(profile.querySelector("img")).toBeNull();
    expect(mutationCalls).toEqual([]);
  });

  test("the hint names the rule that is enforced: an http:// link is saved too (issue 16 item 9)", async () => {
    signedInWith();
    const profile = renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    expect(field).toHaveAccessibleDescription(expect.stringContaining("An http:// or https:// link"));
    await userEvent.type(field, "http://example.com/maria.png");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(mutationCalls).toEqual([
      { name: "settings:setAvatar", args: { avatar: "http://example.com/maria.png" } },
    ]);
  });

  test(`the link's limit of ${LIMITS.avatar} characters is shown and enforced`, async () => {
    signedInWith();
    const profile = renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    expect(field).toHaveAccessibleDescription(expect.stringContaining(`0/${LIMITS.avatar}`));
    const long = `https://example.com/${"a".repeat(LIMITS.avatar - 19)}`;
    await userEvent.click(field);
    await userEvent.paste(long);
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining(`A link must be at most ${LIMITS.avatar} characters.`),
    );
    expect(mutationCalls).toEqual([]);
  });

  test("a saved picture can be removed", async () => {
    signedInWith({}, "https://example.com/maria.png");
    const profile = renderProfile();
    expect(within(profile).getByRole("textbox", { name: /Picture link/ })).toHaveValue(
      "https://example.com/maria.png",
    );
    await userEvent.click(within(profile).getByRole("button", { name: "Remove picture" }));
    expect(mutationCalls).toEqual([{ name: "settings:setAvatar", args: { avatar: "" } }]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(profile).getByRole("status")).toHaveTextContent("Saved — your picture was removed."),
    );
  });
});
