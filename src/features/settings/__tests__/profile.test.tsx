import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { LIMITS } from "@convex/lib/validation";
import { AuthTokenContext } from "@/lib/auth-token";
import { convexReactMock, mutationCalls, mutationImpl, resetConvexMock } from "@/test/convex-mock";
import { SettingsPage } from "../settings-page";
import { signedInWith } from "./fixtures";

vi.mock("convex/react", () => convexReactMock);

function renderProfile() {
  render(
    <AuthTokenContext value={() => Promise.resolve("maria-token")}>
      <MemoryRouter initialEntries={["/dashboard/settings"]}>
        <SettingsPage />
      </MemoryRouter>
    </AuthTokenContext>,
  );
  return screen.getByRole("region", { name: "Profile" });
}

beforeEach(() => {
  resetConvexMock();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The file picker behind "Upload a picture" (the button opens it). */
function filePicker(profile: HTMLElement): HTMLInputElement {
  const input = profile.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error("No file picker.");
  return input;
}

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
    expect(field).toHaveAccessibleDescription(expect.stringContaining("an http:// or https:// link"));
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

  test("an uploaded picture is previewed, then saved as the file's address", async () => {
    signedInWith();
    const uploaded = "https://files.example/storage/abc";
    const posted: { url: string; type: string | null; authorization: string | null }[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      posted.push({ url, type: headers.get("Content-Type"), authorization: headers.get("Authorization") });
      return Promise.resolve(new Response(JSON.stringify({ storageId: "st1" })));
    });
    mutationImpl.current = () => Promise.resolve({ ok: true, url: uploaded });
    const profile = renderProfile();
    expect(
      within(profile).getByRole("button", { name: "Upload a picture for your profile picture" }),
    ).toBeEnabled();
    await userEvent.upload(filePicker(profile), new File(["png"], "me.png", { type: "image/png" }));
    expect(
      await within(profile).findByText(/Uploaded\. The preview shows it; save to use it\./),
    ).toBeInTheDocument();
    // Posted to the upload HTTP action as the signed-in person.
    expect(posted).toEqual([
      {
        url: `${window.location.origin}/local-backend/site/images/upload`,
        type: "image/png",
        authorization: "Bearer maria-token",
      },
    ]);
    expect(within(profile).getByRole("textbox", { name: /Picture link/ })).toHaveValue(uploaded);
    expect(profile.querySelector("img")).toHaveAttribute("src", uploaded);
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(mutationCalls).toEqual([
      { name: "images:claimUpload", args: { storageId: "st1", target: { kind: "me" } } },
      { name: "settings:setAvatar", args: { avatar: uploaded } },
    ]);
  });

  test.each([
    [
      "too many pictures at once",
      new Response("That was a lot of pictures in a short time. Please try again in 3 minutes.", {
        status: 429,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      }),
      "That was a lot of pictures in a short time. Please try again in 3 minutes.",
    ],
    [
      "a text file renamed .png, refused by its bytes",
      new Response("Choose a PNG, JPEG, WebP, GIF or AVIF picture.", {
        status: 415,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      }),
      "Choose a PNG, JPEG, WebP, GIF or AVIF picture.",
    ],
    [
      "a proxy's error page",
      new Response("<html><body>Bad gateway</body></html>", {
        status: 502,
        headers: { "Content-Type": "text/html" },
      }),
      "The picture could not be uploaded. Try again.",
    ],
  ])("an upload refused (%s) is told in words, and nothing is claimed", async (_label, answer, words) => {
    signedInWith();
    vi.stubGlobal("fetch", () => Promise.resolve(answer));
    const profile = renderProfile();
    await userEvent.upload(filePicker(profile), new File(["png"], "me.png", { type: "image/png" }));
    expect(await within(profile).findByRole("alert")).toHaveTextContent(words);
    expect(mutationCalls).toEqual([]);
  });

  test("a file that is not a picture is refused in words before anything is uploaded", async () => {
    signedInWith();
    const profile = renderProfile();
    await userEvent.upload(filePicker(profile), new File(["<svg/>"], "me.svg", { type: "image/svg+xml" }), {
      applyAccept: false,
    });
    expect(await within(profile).findByRole("alert")).toHaveTextContent(
      "Choose a PNG, JPEG, WebP, GIF or AVIF picture.",
    );
    expect(mutationCalls).toEqual([]);
  });
});
