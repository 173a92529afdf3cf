import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, test, vi } from "vitest";
import { LIMITS } from "@convex/lib/validation";
import { AuthTokenContext } from "@/lib/auth-token";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc } from "@/test/convex-seed";
import { SettingsPage } from "../settings-page";
import { signInWithSettings, tokenOf } from "./fixtures";

const convex = convexBackend();
let calls: SentCall[];
let maria: TestPerson;
let token: string;

async function renderProfile(avatar?: string) {
  maria = await signInWithSettings(convex, {}, avatar);
  token = await tokenOf(convex, maria);
  calls = sentCalls(convex.client);
  render(
    <convex.wrapper>
      <AuthTokenContext value={() => Promise.resolve(token)}>
        <MemoryRouter initialEntries={["/dashboard/settings"]}>
          <SettingsPage />
        </MemoryRouter>
      </AuthTokenContext>
    </convex.wrapper>,
  );
  const profile = await screen.findByRole("region", { name: "Profile" });
  // The form is filled in from the user row once it arrives.
  await within(profile).findByRole("textbox", { name: /Picture link/ });
  await waitFor(() => expect(profile).toHaveTextContent("Maria Delgado"));
  return profile;
}

const realFetch = globalThis.fetch;

/** Upload posts go to `answer`; anything else (the backend's own requests) goes out as usual. */
function answerUploads(answer: (url: string, init: RequestInit) => Promise<Response>) {
  vi.stubGlobal("fetch", (url: string, init: RequestInit) =>
    String(url).endsWith("/images/upload") ? answer(String(url), init) : realFetch(url, init),
  );
}

/** A 1×1 PNG: the upload action checks a picture's bytes. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

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
  test("without a picture, initials are shown and there is nothing to remove", async () => {
    const profile = await renderProfile();
    expect(profile).toHaveTextContent("MD");
    expect(within(profile).queryByRole("button", { name: "Remove picture" })).not.toBeInTheDocument();
    expect(within(profile).getByRole("button", { name: "Save picture" })).toBeDisabled();
  });

  test("a typed link is previewed and saved", async () => {
    const profile = await renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    await userEvent.type(field, "https://example.com/maria.png");
    expect(profile.querySelector("img")).toHaveAttribute("src", "https://example.com/maria.png");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(calls).toEqual([
      { name: "settings:setAvatar", args: { avatar: "https://example.com/maria.png" } },
    ]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(profile).getByRole("status")).toHaveTextContent("Saved — your new picture is showing."),
    );
  });

  test("a link that is not http(s) is refused before sending, and not previewed", async () => {
    const profile = await renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    await userEvent.type(field, "javascript:alert(1)");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining("Only http:// and https:// links are allowed."),
    );
    expect(profile.querySelector("img")).toBeNull();
    expect(calls).toEqual([]);
  });

  test("the hint names the rule that is enforced: an http:// link is saved too (issue 16 item 9)", async () => {
    const profile = await renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    expect(field).toHaveAccessibleDescription(expect.stringContaining("an http:// or https:// link"));
    await userEvent.type(field, "http://example.com/maria.png");
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(calls).toEqual([{ name: "settings:setAvatar", args: { avatar: "http://example.com/maria.png" } }]);
  });

  test(`the link's limit of ${LIMITS.avatar} characters is shown and enforced`, async () => {
    const profile = await renderProfile();
    const field = within(profile).getByRole("textbox", { name: /Picture link/ });
    expect(field).toHaveAccessibleDescription(expect.stringContaining(`0/${LIMITS.avatar}`));
    const long = `https://example.com/${"a".repeat(LIMITS.avatar - 19)}`;
    await userEvent.click(field);
    await userEvent.paste(long);
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining(`A link must be at most ${LIMITS.avatar} characters.`),
    );
    expect(calls).toEqual([]);
  });

  test("a saved picture can be removed", async () => {
    const profile = await renderProfile("https://example.com/maria.png");
    expect(within(profile).getByRole("textbox", { name: /Picture link/ })).toHaveValue(
      "https://example.com/maria.png",
    );
    await userEvent.click(within(profile).getByRole("button", { name: "Remove picture" }));
    expect(calls).toEqual([{ name: "settings:setAvatar", args: { avatar: "" } }]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(profile).getByRole("status")).toHaveTextContent("Saved — your picture was removed."),
    );
  });

  test("an uploaded picture is previewed, then saved as the file's address", async () => {
    const posted: { url: string; type: string | null; authorization: string | null }[] = [];
    let storageId: string | undefined;
    // The app posts to its own origin (Vite passes it on to the backend's site); here the backend's.
    answerUploads(async (url, init) => {
      const headers = new Headers(init.headers);
      posted.push({ url, type: headers.get("Content-Type"), authorization: headers.get("Authorization") });
      const bytes = Buffer.from(await (init.body as File).arrayBuffer());
      const answer = await realFetch(`${convex.backend.siteUrl}/images/upload`, { ...init, body: bytes });
      storageId = ((await answer.clone().json()) as { storageId: string }).storageId;
      return answer;
    });
    const profile = await renderProfile();
    expect(
      within(profile).getByRole("button", { name: "Upload a picture for your profile picture" }),
    ).toBeEnabled();
    await userEvent.upload(
      filePicker(profile),
      new File([new Uint8Array(PNG)], "me.png", { type: "image/png" }),
    );
    expect(
      await within(profile).findByText(/Uploaded\. The preview shows it; save to use it\./),
    ).toBeInTheDocument();
    // Posted to the upload HTTP action as the signed-in person.
    expect(posted).toEqual([
      {
        url: `${window.location.origin}/local-backend/site/images/upload`,
        type: "image/png",
        authorization: `Bearer ${token}`,
      },
    ]);
    // The field holds the address the server gave the claimed file.
    const uploaded = within(profile).getByRole<HTMLInputElement>("textbox", { name: /Picture link/ }).value;
    expect(uploaded).toMatch(/^https?:\/\//);
    expect(profile.querySelector("img")).toHaveAttribute("src", uploaded);
    await userEvent.click(within(profile).getByRole("button", { name: "Save picture" }));
    expect(calls).toEqual([
      { name: "images:claimUpload", args: { storageId, target: { kind: "me" } } },
      { name: "settings:setAvatar", args: { avatar: uploaded } },
    ]);
    await waitFor(async () => expect((await readDoc(convex, maria.userId))?.avatar).toBe(uploaded));
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
    answerUploads(() => Promise.resolve(answer));
    const profile = await renderProfile();
    await userEvent.upload(filePicker(profile), new File(["png"], "me.png", { type: "image/png" }));
    expect(await within(profile).findByRole("alert")).toHaveTextContent(words);
    expect(calls).toEqual([]);
  });

  test("a file that is not a picture is refused in words before anything is uploaded", async () => {
    const profile = await renderProfile();
    await userEvent.upload(filePicker(profile), new File(["<svg/>"], "me.svg", { type: "image/svg+xml" }), {
      applyAccept: false,
    });
    expect(await within(profile).findByRole("alert")).toHaveTextContent(
      "Choose a PNG, JPEG, WebP, GIF or AVIF picture.",
    );
    expect(calls).toEqual([]);
  });
});
