import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/validation";
import { AuthTokenContext } from "@/lib/auth-token";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { PrivacyRequestsSection } from "../privacy-requests-section";
import { signInWithSettings, tokenOf } from "./fixtures";

const convex = convexBackend();
let calls: SentCall[];
let maria: TestPerson;
let token: string;

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Request = Omit<Doc<"privacyRequests">, "_id" | "_creationTime" | "createdAt" | "updatedAt">;

/** A request of Maria's: an open data export asked now, unless told. */
async function seedRequest(overrides: Partial<Request> = {}): Promise<Id<"privacyRequests">> {
  const now = Date.now();
  return await convex.run((ctx) =>
    ctx.db.insert("privacyRequests", {
      userId: maria.userId,
      type: "access",
      status: "pending_export",
      requestedAt: now,
      dueAt: now + 31 * DAY,
      ...overrides,
      createdAt: now,
      updatedAt: now,
    }),
  );
}

/** A day as the page writes it ("Mar 4, 2026"), in the zone the test runs in. */
function dayOf(at: number): string {
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(at);
}

/** Maria signed in; `before` seeds what she has; the section rendered, resolving once it has its data. */
async function renderSection(before?: () => Promise<unknown>) {
  maria = await signInWithSettings(convex);
  token = await tokenOf(convex, maria);
  await before?.();
  calls = sentCalls(convex.client);
  render(
    <convex.wrapper>
      <AuthTokenContext value={() => Promise.resolve(token)}>
        <PrivacyRequestsSection />
      </AuthTokenContext>
    </convex.wrapper>,
  );
  await convex.answered(api.privacy.myPrivacy, {});
}

function section() {
  return screen.getByRole("region", { name: "Privacy requests" });
}

async function form() {
  await within(section()).findAllByRole("radio");
  return within(section());
}

describe("privacy requests: the form", () => {
  test("asks which right first, and sends nothing without one", async () => {
    await renderSection();
    const requestForm = await form();
    expect(requestForm.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "access",
      "correction",
      "restriction",
      "deletion",
    ]);
    await userEvent.click(requestForm.getByRole("button", { name: "Send request" }));
    expect(requestForm.getByText("Choose a request type.")).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  test("an export request sends its trimmed reason; the counter counts it live", async () => {
    await renderSection();
    const requestForm = await form();
    await userEvent.click(requestForm.getByRole("radio", { name: /a copy of my data/i }));
    const reason = requestForm.getByRole("textbox", { name: /reason/i });
    expect(requestForm.getByText(`0/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.type(reason, "  Moving away  ");
    expect(requestForm.getByText(`11/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.click(requestForm.getByRole("button", { name: "Request my data" }));
    expect(calls).toEqual([
      { name: "privacy:requestPrivacy", args: { type: "access", reason: "Moving away" } },
    ]);
    // The request is made: it replaces the form.
    expect(await screen.findByRole("group", { name: "Your open request" })).toHaveTextContent("Moving away");
  });

  test("a reason over the limit is refused before sending, beside the field", async () => {
    await renderSection();
    const requestForm = await form();
    await userEvent.click(requestForm.getByRole("radio", { name: /restrict processing/i }));
    const reason = requestForm.getByRole("textbox", { name: /reason/i });
    await userEvent.click(reason);
    await userEvent.paste("x".repeat(LIMITS.gdprReason + 1));
    expect(requestForm.getByText(`${LIMITS.gdprReason + 1}/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.click(requestForm.getByRole("button", { name: "Request a restriction" }));
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason).toHaveAccessibleDescription(new RegExp(`at most ${LIMITS.gdprReason}`));
    expect(calls).toEqual([]);
  });

  test("a correction must say what to correct", async () => {
    await renderSection();
    const requestForm = await form();
    expect(requestForm.queryByRole("textbox", { name: /what should be corrected/i })).not.toBeInTheDocument();
    await userEvent.click(requestForm.getByRole("radio", { name: /correct my data/i }));
    const details = requestForm.getByRole("textbox", { name: /what should be corrected/i });
    await userEvent.click(requestForm.getByRole("button", { name: "Request a correction" }));
    expect(details).toHaveAccessibleDescription(/tell us what should be corrected/i);
    expect(details).toHaveFocus();
    expect(calls).toEqual([]);

    await userEvent.type(details, "My shop's tax id is wrong.");
    await userEvent.click(requestForm.getByRole("button", { name: "Request a correction" }));
    expect(calls).toEqual([
      { name: "privacy:requestPrivacy", args: { type: "correction", details: "My shop's tax id is wrong." } },
    ]);
  });

  test("a deletion warns, and is sent only after the confirm dialog", async () => {
    await renderSection();
    const requestForm = await form();
    await userEvent.click(requestForm.getByRole("radio", { name: /delete my account/i }));
    expect(requestForm.getByText("Deleting your account cannot be undone.")).toBeInTheDocument();

    await userEvent.click(requestForm.getByRole("button", { name: "Request deletion" }));
    let dialog = screen.getByRole("alertdialog", { name: "Ask to delete your account?" });
    expect(dialog).toHaveTextContent(/cannot be undone/i);
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep my account" }));
    expect(calls).toEqual([]);

    await userEvent.click(requestForm.getByRole("button", { name: "Request deletion" }));
    dialog = screen.getByRole("alertdialog", { name: "Ask to delete your account?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Request deletion" }));
    expect(calls).toEqual([{ name: "privacy:requestPrivacy", args: { type: "deletion" } }]);
  });

  // Field-level refusals from the server (ConvexError `fields`) cannot be reached from this form: it
  // checks the same schema (privacyRequestSchema) before sending, so the server never refuses a field
  // the browser let through.
  test("the server's refusal shows as words in an alert", async () => {
    await renderSection();
    const requestForm = await form();
    await userEvent.click(requestForm.getByRole("radio", { name: /a copy of my data/i }));
    await userEvent.type(requestForm.getByRole("textbox", { name: /reason/i }), "Because");
    // Meanwhile her request state says one is open (another tab of hers asked first).
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(maria.userId, {
        gdprRequestStatus: "pending_review",
        gdprRequestType: "restriction",
      });
    });
    await userEvent.click(requestForm.getByRole("button", { name: "Request my data" }));
    await release();
    expect(await requestForm.findByRole("alert")).toHaveTextContent(
      "You already have an open request. Wait for its answer, or cancel it to ask for something else.",
    );
    expect(calls).toEqual([{ name: "privacy:requestPrivacy", args: { type: "access", reason: "Because" } }]);
  });
});

describe("privacy requests: an open request", () => {
  test("replaces the form, with its dates and status in words, and can be cancelled", async () => {
    let requestId!: Id<"privacyRequests">;
    const requestedAt = Date.now();
    const dueAt = requestedAt + 31 * DAY;
    await renderSection(async () => {
      requestId = await seedRequest({ reason: "Just curious", requestedAt, dueAt });
    });
    const current = within(await screen.findByRole("group", { name: "Your open request" }));
    expect(current.getByRole("heading", { name: "Open request: Data export" })).toBeInTheDocument();
    expect(current.getByText(dayOf(requestedAt))).toBeInTheDocument();
    expect(current.getByText(dayOf(dueAt))).toBeInTheDocument();
    expect(current.getByText("Just curious")).toBeInTheDocument();
    expect(current.getByText(/waiting for a livelocal admin to review it/i)).toBeInTheDocument();
    expect(within(section()).queryByRole("radio")).not.toBeInTheDocument();
    // The open request is not repeated among the past ones.
    expect(within(section()).getByText("You have not made any other requests.")).toBeInTheDocument();

    await userEvent.click(current.getByRole("button", { name: "Cancel request" }));
    expect(calls).toEqual([{ name: "privacy:cancelPrivacyRequest", args: { requestId } }]);
    // Cancelled, a new request can be made again.
    expect(await within(section()).findAllByRole("radio")).toHaveLength(4);
  });

  test("updates live: approved, then the download appears with its expiry", async () => {
    let requestId!: Id<"privacyRequests">;
    await renderSection(async () => {
      requestId = await seedRequest();
    });
    expect(await screen.findByRole("button", { name: "Cancel request" })).toBeInTheDocument();

    await convex.run((ctx) => ctx.db.patch(requestId, { decidedAt: Date.now() }));
    expect(await screen.findByText(/your file is being prepared/i)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel request" })).not.toBeInTheDocument();

    const expiresAt = Date.now() + 8 * DAY;
    await seedExport('{"user":{}}', expiresAt, 2048, requestId);
    const ready = within(await screen.findByRole("group", { name: "Your data export" }));
    expect(ready.getByRole("button", { name: "Download your data" })).toBeInTheDocument();
    expect(ready.getByText(/available until/i)).toHaveTextContent(`Available until ${dayOf(expiresAt)}`);
    expect(ready.getByText(/2\.0 KB/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Your data export is ready to download.");
    // With nothing open, a new request can be made again.
    expect(within(section()).getAllByRole("radio")).toHaveLength(4);
  });
});

/**
 * A finished export of Maria's: `json` stored as a file (through an upload URL, as a function's
 * storage writes it) and its row, which marks the request completed.
 */
async function seedExport(
  json: string,
  expiresAt: number,
  byteLength: number,
  requestId?: Id<"privacyRequests">,
) {
  const uploadUrl = await convex.run((ctx) => ctx.storage.generateUploadUrl());
  const stored = await fetch(uploadUrl, {
    method: "POST",
    body: json,
    headers: { "Content-Type": "application/json" },
  });
  const { storageId } = (await stored.json()) as { storageId: Id<"_storage"> };
  const request = requestId ?? (await seedRequest({ status: "completed", decidedAt: Date.now() }));
  await convex.run(async (ctx) => {
    const now = Date.now();
    await ctx.db.patch(request, { status: "completed", decidedAt: now });
    await ctx.db.patch(maria.userId, { gdprRequestStatus: "completed" });
    await ctx.db.insert("dataExports", {
      userId: maria.userId,
      requestId: request,
      storageId,
      byteLength,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
  });
}

describe("privacy requests: history", () => {
  test("shows decisions: a rejection's reason and a correction's note", async () => {
    const at = Date.now();
    await renderSection(async () => {
      await seedRequest({
        type: "restriction",
        status: "cancelled",
        requestedAt: at - 3 * DAY,
        decidedAt: at - DAY,
      });
      await seedRequest({
        type: "correction",
        status: "completed",
        details: "Name is misspelt",
        requestedAt: at - 2 * DAY,
        decidedAt: at - DAY,
        decisionReason: "Changed the name to Jordan Lee.",
      });
      await seedRequest({
        type: "deletion",
        status: "rejected",
        requestedAt: at - DAY,
        decidedAt: at,
        decisionReason: "You have an unpaid order in dispute.",
      });
    });
    const items = within(await screen.findByRole("list", { name: "Past requests" })).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("Account deletion");
    expect(items[0]).toHaveTextContent("Rejected");
    expect(items[0]).toHaveTextContent("Reason for the rejectionYou have an unpaid order in dispute.");
    expect(items[1]).toHaveTextContent("What was changedChanged the name to Jordan Lee.");
    expect(items[1]).toHaveTextContent("To correctName is misspelt");
    expect(items[2]).toHaveTextContent("Cancelled");
  });

  test("a correction lists each change made, before and after, while open and once answered", async () => {
    const at = Date.now();
    const corrections = [
      { at, what: "Your name", from: "Jordn Lee", to: "Jordan Lee" },
      { at, what: "Your picture", from: "https://img.example/old.png", kind: "picture" as const },
    ];
    let requestId!: Id<"privacyRequests">;
    await renderSection(async () => {
      requestId = await seedRequest({
        type: "correction",
        status: "pending_review",
        details: "Name",
        corrections,
      });
    });
    expect(await within(section()).findByRole("list", { name: "Changed so far" })).toHaveTextContent(
      "Your name: was “Jordn Lee”, now “Jordan Lee”",
    );
    await convex.run((ctx) =>
      ctx.db.patch(requestId, { status: "completed", decidedAt: Date.now(), decisionReason: "Fixed." }),
    );
    const changes = await screen.findByRole("list", { name: "Changes made" });
    expect(changes).toHaveTextContent("Your picture: removed");
  });

  test("says when processing is restricted", async () => {
    await renderSection(async () => {
      await convex.run((ctx) => ctx.db.patch(maria.userId, { restrictedAt: Date.now() }));
    });
    expect(await screen.findByText(/processing of your data is restricted/i)).toBeInTheDocument();
  });
});

describe("privacy requests: the download", () => {
  const realFetch = globalThis.fetch;

  /** The export download goes to the backend's site (the app reaches it through Vite's proxy). */
  function exportAnswers(answer: (init?: RequestInit) => Promise<Response>) {
    const fetched = vi.fn((url: string, init?: RequestInit) =>
      String(url).endsWith("/privacy/export") ? answer(init) : realFetch(url, init),
    );
    vi.stubGlobal("fetch", fetched);
    return fetched;
  }

  async function renderReady(json = '{"user":{}}') {
    await renderSection(() => seedExport(json, Date.now() + 7 * DAY, json.length));
    await screen.findByRole("button", { name: "Download your data" });
  }

  test("fetches the export with the auth token and saves it under the server's file name", async () => {
    // The server's answer as its HTTP action gives it (convex/http.ts).
    const fetched = exportAnswers(() =>
      Promise.resolve(
        new Response('{"user":{}}', {
          headers: {
            "Content-Type": "application/json",
            "Content-Disposition": 'attachment; filename="livelocal-data-export-2026-03-04.json"',
          },
        }),
      ),
    );
    const createObjectURL = vi.fn((_blob: Blob) => "blob:export");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    await renderReady();

    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(fetched).toHaveBeenCalledWith(`${window.location.origin}/local-backend/site/privacy/export`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(await createObjectURL.mock.calls[0]?.[0].text()).toBe('{"user":{}}');
    expect(saved).toEqual([{ href: "blob:export", download: "livelocal-data-export-2026-03-04.json" }]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("an answer that is not JSON is not saved as the person's data", async () => {
    // A proxy's page in place of the server's answer.
    exportAnswers(() =>
      Promise.resolve(new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } })),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click");
    await renderReady();
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/did not send your data/i);
    expect(click).not.toHaveBeenCalled();
  });

  test("an expired export is explained in words", async () => {
    exportAnswers((init) => realFetch(`${convex.backend.siteUrl}/privacy/export`, init));
    await renderReady();
    // Its file is gone by the time of the click (the server deletes it at expiry).
    await convex.run(async (ctx) => {
      for (const row of await ctx.db.query("dataExports").collect()) await ctx.storage.delete(row.storageId);
    });
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/no longer available/i);
  });
});
