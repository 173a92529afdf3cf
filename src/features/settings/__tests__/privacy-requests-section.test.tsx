import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LIMITS } from "@convex/lib/validation";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { PrivacyRequestsSection } from "../privacy-requests-section";

vi.mock("convex/react", () => convexReactMock);
vi.mock("@/lib/convex-site", () => ({ convexSiteUrl: () => "https://site.example" }));
vi.mock("@/lib/auth-token", () => ({
  useAuthToken: () => () => Promise.resolve("the-token"),
}));

const DAY = 24 * 60 * 60 * 1000;
const REQUESTED = Date.UTC(2026, 2, 4, 15);
const DUE = Date.UTC(2026, 3, 4, 15);

function request(overrides: Record<string, unknown> = {}) {
  return {
    _id: "r1",
    type: "access",
    status: "pending_export",
    requestedAt: REQUESTED,
    dueAt: DUE,
    ...overrides,
  };
}

function privacy(overrides: Record<string, unknown> = {}) {
  return { open: null, history: [], dataExport: null, restricted: false, ...overrides };
}

function section() {
  return screen.getByRole("region", { name: "Privacy requests" });
}

beforeEach(() => {
  resetConvexMock();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("privacy requests: the form", () => {
  test("asks which right first, and sends nothing without one", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    expect(form.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "access",
      "correction",
      "restriction",
      "deletion",
    ]);
    await userEvent.click(form.getByRole("button", { name: "Send request" }));
    expect(form.getByText("Choose a request type.")).toBeInTheDocument();
    expect(mutationCalls).toEqual([]);
  });

  test("an export request sends its trimmed reason; the counter counts it live", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    await userEvent.click(form.getByRole("radio", { name: /a copy of my data/i }));
    const reason = form.getByRole("textbox", { name: /reason/i });
    expect(form.getByText(`0/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.type(reason, "  Moving away  ");
    expect(form.getByText(`11/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.click(form.getByRole("button", { name: "Request my data" }));
    expect(mutationCalls).toEqual([
      { name: "privacy:requestPrivacy", args: { type: "access", reason: "Moving away" } },
    ]);
  });

  test("a reason over the limit is refused before sending, beside the field", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    await userEvent.click(form.getByRole("radio", { name: /restrict processing/i }));
    const reason = form.getByRole("textbox", { name: /reason/i });
    await userEvent.click(reason);
    await userEvent.paste("x".repeat(LIMITS.gdprReason + 1));
    expect(form.getByText(`${LIMITS.gdprReason + 1}/${LIMITS.gdprReason}`)).toBeInTheDocument();
    await userEvent.click(form.getByRole("button", { name: "Request a restriction" }));
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason).toHaveAccessibleDescription(new RegExp(`at most ${LIMITS.gdprReason}`));
    expect(mutationCalls).toEqual([]);
  });

  test("a correction must say what to correct", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    expect(form.queryByRole("textbox", { name: /what should be corrected/i })).not.toBeInTheDocument();
    await userEvent.click(form.getByRole("radio", { name: /correct my data/i }));
    const details = form.getByRole("textbox", { name: /what should be corrected/i });
    await userEvent.click(form.getByRole("button", { name: "Request a correction" }));
    expect(details).toHaveAccessibleDescription(/tell us what should be corrected/i);
    expect(details).toHaveFocus();
    expect(mutationCalls).toEqual([]);

    await userEvent.type(details, "My shop's tax id is wrong.");
    await userEvent.click(form.getByRole("button", { name: "Request a correction" }));
    expect(mutationCalls).toEqual([
      { name: "privacy:requestPrivacy", args: { type: "correction", details: "My shop's tax id is wrong." } },
    ]);
  });

  test("a deletion warns, and is sent only after the confirm dialog", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    await userEvent.click(form.getByRole("radio", { name: /delete my account/i }));
    expect(form.getByText("Deleting your account cannot be undone.")).toBeInTheDocument();

    await userEvent.click(form.getByRole("button", { name: "Request deletion" }));
    let dialog = screen.getByRole("alertdialog", { name: "Ask to delete your account?" });
    expect(dialog).toHaveTextContent(/cannot be undone/i);
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep my account" }));
    expect(mutationCalls).toEqual([]);

    await userEvent.click(form.getByRole("button", { name: "Request deletion" }));
    dialog = screen.getByRole("alertdialog", { name: "Ask to delete your account?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Request deletion" }));
    expect(mutationCalls).toEqual([{ name: "privacy:requestPrivacy", args: { type: "deletion" } }]);
  });

  test("the server's refusals show as words: a field's beside it, the rest in an alert", async () => {
    setQueryResult(api.privacy.myPrivacy, privacy());
    render(<PrivacyRequestsSection />);
    const form = within(section());
    await userEvent.click(form.getByRole("radio", { name: /a copy of my data/i }));
    await userEvent.type(form.getByRole("textbox", { name: /reason/i }), "Because");

    mutationImpl.current = () =>
      Promise.reject(
        new ConvexError({
          code: "INVALID_ARGUMENT",
          message: "Check the request.",
          fields: { reason: "Reason contains a card number." },
        }),
      );
    await userEvent.click(form.getByRole("button", { name: "Request my data" }));
    expect(form.getByRole("textbox", { name: /reason/i })).toHaveAccessibleDescription(/card number/);

    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "CONFLICT", message: "You already have an open request." }));
    await userEvent.click(form.getByRole("button", { name: "Request my data" }));
    expect(form.getByRole("alert")).toHaveTextContent("You already have an open request.");
  });
});

describe("privacy requests: an open request", () => {
  test("replaces the form, with its dates and status in words, and can be cancelled", async () => {
    const open = request({ reason: "Just curious" });
    setQueryResult(api.privacy.myPrivacy, privacy({ open, history: [open] }));
    render(<PrivacyRequestsSection />);
    const current = within(screen.getByRole("group", { name: "Your open request" }));
    expect(current.getByRole("heading", { name: "Open request: Data export" })).toBeInTheDocument();
    expect(current.getByText("Mar 4, 2026")).toBeInTheDocument();
    expect(current.getByText("Apr 4, 2026")).toBeInTheDocument();
    expect(current.getByText("Just curious")).toBeInTheDocument();
    expect(current.getByText(/waiting for a livelocal admin to review it/i)).toBeInTheDocument();
    expect(within(section()).queryByRole("radio")).not.toBeInTheDocument();
    // The open request is not repeated among the past ones.
    expect(within(section()).getByText("You have not made any other requests.")).toBeInTheDocument();

    await userEvent.click(current.getByRole("button", { name: "Cancel request" }));
    expect(mutationCalls).toEqual([{ name: "privacy:cancelPrivacyRequest", args: { requestId: "r1" } }]);
  });

  test("updates live: approved, then the download appears with its expiry", () => {
    const open = request();
    setQueryResult(api.privacy.myPrivacy, privacy({ open, history: [open] }));
    render(<PrivacyRequestsSection />);
    expect(screen.getByRole("button", { name: "Cancel request" })).toBeInTheDocument();

    const approved = request({ decidedAt: REQUESTED + DAY });
    act(() => setQueryResult(api.privacy.myPrivacy, privacy({ open: approved, history: [approved] })));
    expect(screen.getByText(/your file is being prepared/i)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel request" })).not.toBeInTheDocument();

    const done = request({ status: "completed", decidedAt: REQUESTED + DAY });
    act(() =>
      setQueryResult(
        api.privacy.myPrivacy,
        privacy({
          history: [done],
          dataExport: { createdAt: REQUESTED + DAY, expiresAt: REQUESTED + 8 * DAY, byteLength: 2048 },
        }),
      ),
    );
    const ready = within(screen.getByRole("group", { name: "Your data export" }));
    expect(ready.getByRole("button", { name: "Download your data" })).toBeInTheDocument();
    expect(ready.getByText(/available until/i)).toHaveTextContent("Available until Mar 12, 2026");
    expect(ready.getByText(/2\.0 KB/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Your data export is ready to download.");
    // With nothing open, a new request can be made again.
    expect(within(section()).getAllByRole("radio")).toHaveLength(4);
  });
});

describe("privacy requests: history", () => {
  test("shows decisions: a rejection's reason and a correction's note", () => {
    setQueryResult(
      api.privacy.myPrivacy,
      privacy({
        history: [
          request({
            _id: "r3",
            type: "deletion",
            status: "rejected",
            decidedAt: REQUESTED + 2 * DAY,
            decisionReason: "You have an unpaid order in dispute.",
          }),
          request({
            _id: "r2",
            type: "correction",
            status: "completed",
            details: "Name is misspelt",
            decidedAt: REQUESTED + DAY,
            decisionReason: "Changed the name to Jordan Lee.",
          }),
          request({ _id: "r1", type: "restriction", status: "cancelled", decidedAt: REQUESTED + 1000 }),
        ],
      }),
    );
    render(<PrivacyRequestsSection />);
    const items = within(screen.getByRole("list", { name: "Past requests" })).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("Account deletion");
    expect(items[0]).toHaveTextContent("Rejected");
    expect(items[0]).toHaveTextContent("Reason for the rejectionYou have an unpaid order in dispute.");
    expect(items[1]).toHaveTextContent("What was changedChanged the name to Jordan Lee.");
    expect(items[1]).toHaveTextContent("To correctName is misspelt");
    expect(items[2]).toHaveTextContent("Cancelled");
  });

  test("a correction lists each change made, before and after, while open and once answered", () => {
    const corrections = [
      { at: REQUESTED + DAY, what: "Your name", from: "Jordn Lee", to: "Jordan Lee" },
      { at: REQUESTED + DAY, what: "Your picture", from: "https://img.example/old.png", kind: "picture" },
    ];
    const open = request({ type: "correction", status: "pending_review", details: "Name", corrections });
    setQueryResult(api.privacy.myPrivacy, privacy({ open, history: [open] }));
    const { unmount } = render(<PrivacyRequestsSection />);
    expect(within(section()).getByRole("list", { name: "Changed so far" })).toHaveTextContent(
      "Your name: was “Jordn Lee”, now “Jordan Lee”",
    );
    unmount();
    const done = { ...open, status: "completed", decidedAt: REQUESTED + 2 * DAY, decisionReason: "Fixed." };
    setQueryResult(api.privacy.myPrivacy, privacy({ history: [done] }));
    render(<PrivacyRequestsSection />);
    const changes = screen.getByRole("list", { name: "Changes made" });
    expect(changes).toHaveTextContent("Your picture: removed");
  });

  test("says when processing is restricted", () => {
    setQueryResult(api.privacy.myPrivacy, privacy({ restricted: true }));
    render(<PrivacyRequestsSection />);
    expect(screen.getByText(/processing of your data is restricted/i)).toBeInTheDocument();
  });
});

describe("privacy requests: the download", () => {
  function renderReady() {
    setQueryResult(
      api.privacy.myPrivacy,
      privacy({ dataExport: { createdAt: REQUESTED, expiresAt: REQUESTED + 7 * DAY, byteLength: 900 } }),
    );
    render(<PrivacyRequestsSection />);
  }

  test("fetches the export with the auth token and saves it under the server's file name", async () => {
    const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(
        new Response('{"user":{}}', {
          headers: {
            "Content-Type": "application/json",
            "Content-Disposition": 'attachment; filename="livelocal-data-export-2026-03-04.json"',
          },
        }),
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    const createObjectURL = vi.fn((_blob: Blob) => "blob:export");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    renderReady();

    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(fetchMock).toHaveBeenCalledWith("https://site.example/privacy/export", {
      headers: { Authorization: "Bearer the-token" },
    });
    expect(await createObjectURL.mock.calls[0]?.[0].text()).toBe('{"user":{}}');
    expect(saved).toEqual([{ href: "blob:export", download: "livelocal-data-export-2026-03-04.json" }]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("an answer that is not JSON is not saved as the person's data", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } })),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click");
    renderReady();
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/did not send your data/i);
    expect(click).not.toHaveBeenCalled();
  });

  test("an expired export is explained in words", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("Not found", { status: 404 })));
    renderReady();
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/no longer available/i);
  });
});
