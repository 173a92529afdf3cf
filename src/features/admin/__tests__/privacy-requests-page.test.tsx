import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import {
  CORRECTION_NOTE_REQUIRED,
  NOTHING_CORRECTED,
  REJECTION_REASON_REQUIRED,
} from "@convex/lib/validation";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { dueWords } from "../privacy-request-card";
import { PrivacyRequestsPage } from "../privacy-requests-page";

vi.mock("convex/react", () => convexReactMock);

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 4, 20, 12);

const jordan = { _id: "u1", name: "Jordan Lee", email: "viewer@livelocal.test" };
const sam = { _id: "u2", email: "sam@example.com" };

function open(overrides: Record<string, unknown> = {}) {
  return {
    _id: "r1",
    type: "access",
    status: "pending_export",
    requestedAt: NOW - 2 * DAY,
    dueAt: NOW + 28 * DAY,
    user: jordan,
    ...overrides,
  };
}

function renderPage() {
  render(
    <MemoryRouter initialEntries={["/dashboard/admin/privacy-requests"]}>
      <PrivacyRequestsPage />
    </MemoryRouter>,
  );
}

function card(name: RegExp) {
  return within(screen.getByRole("listitem", { name }));
}

beforeEach(() => {
  resetConvexMock();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  setQueryResult(api.privacy.listRestrictedUsers, []);
  setQueryResult(api.privacy.listDecidedRequests, []);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("admin: open privacy requests", () => {
  test("oldest first, with requester, dates and the overdue ones marked in words", () => {
    setQueryResult(api.privacy.listOpenRequests, [
      open({
        _id: "r0",
        type: "deletion",
        status: "pending_deletion",
        requestedAt: NOW - 34 * DAY,
        dueAt: NOW - 3 * DAY,
        user: sam,
        reason: "Leaving the area",
      }),
      open(),
    ]);
    renderPage();
    expect(screen.getByRole("heading", { name: "Privacy requests", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: /open requests/i, level: 2 })).toHaveTextContent(
      "Open requests(2, 1 overdue)",
    );
    const items = within(screen.getByRole("list", { name: "Open requests" })).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("h3")?.textContent)).toEqual([
      "Account deletion · sam@example.com",
      "Data export · Jordan Lee (viewer@livelocal.test)",
    ]);
    expect(items[0]).toHaveTextContent("Overdue by 3 days");
    expect(items[0]).toHaveTextContent("Leaving the area");
    expect(items[1]).toHaveTextContent("Due in 28 days");
    expect(items[1]).toHaveTextContent("None given");
    // With times: a day's requests are told apart.
    expect(items[1]).toHaveTextContent(/Due byJun 17, 2026, \d{1,2}:\d{2}\s[AP]M/);
    expect(items[1]).toHaveTextContent(/RequestedMay 18, 2026, \d{1,2}:\d{2}\s[AP]M/);
  });

  test("approving an export sends the decision; an approved export shows as being prepared", async () => {
    setQueryResult(api.privacy.listOpenRequests, [open()]);
    renderPage();
    await userEvent.click(card(/data export/i).getByRole("button", { name: "Approve and prepare export" }));
    expect(mutationCalls).toEqual([
      { name: "privacy:decidePrivacyRequest", args: { requestId: "r1", decision: "approve" } },
    ]);
    expect(screen.getByText(/approved; the export is being prepared/i)).toBeInTheDocument();

    act(() => setQueryResult(api.privacy.listOpenRequests, [open({ decidedAt: NOW })]));
    expect(card(/data export/i).getByText(/the export is being prepared/i)).toBeInTheDocument();
    expect(card(/data export/i).queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
    // A failed build is retried by approving again.
    await userEvent.click(card(/data export/i).getByRole("button", { name: "Prepare it again" }));
    expect(mutationCalls).toHaveLength(2);
    expect(mutationCalls[1]).toEqual(mutationCalls[0]);
  });

  test("rejecting needs a reason, which is sent to be shown to the user", async () => {
    setQueryResult(api.privacy.listOpenRequests, [open()]);
    renderPage();
    const item = card(/data export/i);
    await userEvent.click(item.getByRole("button", { name: "Reject" }));
    const note = item.getByRole("textbox", { name: "Note to the requester" });
    expect(note).toHaveAccessibleDescription(expect.stringContaining(REJECTION_REASON_REQUIRED));
    expect(mutationCalls).toEqual([]);

    await userEvent.type(note, "We could not verify it is you.");
    await userEvent.click(item.getByRole("button", { name: "Reject" }));
    expect(mutationCalls).toEqual([
      {
        name: "privacy:decidePrivacyRequest",
        args: { requestId: "r1", decision: "reject", reason: "We could not verify it is you." },
      },
    ]);
  });

  test("a correction links to its correction screen and is approved only once something is corrected", async () => {
    setQueryResult(api.privacy.listOpenRequests, [
      open({ type: "correction", status: "pending_review", details: "Wrong name" }),
    ]);
    renderPage();
    let item = card(/correction/i);
    expect(item.getByText("Wrong name")).toBeInTheDocument();
    expect(item.getByRole("link", { name: "Correct the data" })).toHaveAttribute(
      "href",
      "/dashboard/admin/privacy-requests/r1",
    );
    expect(item.getByText("Nothing corrected yet.")).toBeInTheDocument();
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    const note = item.getByRole("textbox", { name: /what you changed/i });
    expect(note).toHaveAccessibleDescription(expect.stringContaining(CORRECTION_NOTE_REQUIRED));
    await userEvent.type(note, "Name set to Jordan Lee.");
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    expect(item.getByRole("alert")).toHaveTextContent(NOTHING_CORRECTED);
    expect(mutationCalls).toEqual([]);

    const corrections = [{ at: NOW, what: "Your name", from: "Jordn", to: "Jordan Lee" }];
    act(() =>
      setQueryResult(api.privacy.listOpenRequests, [
        open({ type: "correction", status: "pending_review", details: "Wrong name", corrections }),
      ]),
    );
    item = card(/correction/i);
    expect(item.getByText("1 change made, shown to the requester.")).toBeInTheDocument();
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    expect(mutationCalls).toEqual([
      {
        name: "privacy:decidePrivacyRequest",
        args: { requestId: "r1", decision: "approve", reason: "Name set to Jordan Lee." },
      },
    ]);
  });

  test("approving a deletion asks first and says it is irreversible", async () => {
    setQueryResult(api.privacy.listOpenRequests, [open({ type: "deletion", status: "pending_deletion" })]);
    renderPage();
    const approve = card(/account deletion/i).getByRole("button", { name: "Approve deletion" });
    await userEvent.click(approve);
    let dialog = screen.getByRole("alertdialog", { name: "Delete this account for good?" });
    expect(dialog).toHaveTextContent("This is irreversible.");
    expect(dialog).toHaveTextContent("Jordan Lee (viewer@livelocal.test)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Go back" }));
    expect(mutationCalls).toEqual([]);

    await userEvent.click(approve);
    dialog = screen.getByRole("alertdialog", { name: "Delete this account for good?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete account" }));
    expect(mutationCalls).toEqual([
      { name: "privacy:decidePrivacyRequest", args: { requestId: "r1", decision: "approve" } },
    ]);
  });

  test("the server's refusal shows in the card", async () => {
    setQueryResult(api.privacy.listOpenRequests, [open()]);
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "CONFLICT", message: "This request was already decided." }));
    renderPage();
    await userEvent.click(card(/data export/i).getByRole("button", { name: "Approve and prepare export" }));
    expect(card(/data export/i).getByRole("alert")).toHaveTextContent("This request was already decided.");
  });

  test("due dates in words: whole days, rounded towards the deadline", () => {
    expect(dueWords(NOW + 30 * DAY - 60_000, NOW)).toEqual({ overdue: false, text: "Due in 30 days" });
    expect(dueWords(NOW + DAY / 2, NOW)).toEqual({ overdue: false, text: "Due within a day" });
    expect(dueWords(NOW - 1, NOW)).toEqual({ overdue: true, text: "Overdue by 1 day" });
    expect(dueWords(NOW - 2 * DAY - 1, NOW)).toEqual({ overdue: true, text: "Overdue by 3 days" });
  });

  test("an empty queue says so", () => {
    setQueryResult(api.privacy.listOpenRequests, []);
    renderPage();
    expect(screen.getByText(/no open requests/i)).toBeInTheDocument();
  });
});

describe("admin: restricted accounts and decided requests", () => {
  test("a restriction is lifted after confirming", async () => {
    setQueryResult(api.privacy.listOpenRequests, []);
    setQueryResult(api.privacy.listRestrictedUsers, [{ ...jordan, restrictedAt: NOW - 5 * DAY }]);
    renderPage();
    const row = within(screen.getByRole("list", { name: "Restricted accounts" })).getByRole("listitem");
    expect(row).toHaveTextContent("Restricted since May 15, 2026");
    await userEvent.click(
      within(row).getByRole("button", { name: "Lift restriction on viewer@livelocal.test" }),
    );
    const dialog = screen.getByRole("alertdialog", { name: "Lift the restriction on Jordan Lee?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Lift restriction" }));
    expect(mutationCalls).toEqual([{ name: "privacy:liftRestriction", args: { userId: "u1" } }]);
    expect(screen.getByText("The restriction on Jordan Lee is lifted.")).toBeInTheDocument();
  });

  test("the decided history shows who decided, when and why", () => {
    setQueryResult(api.privacy.listOpenRequests, []);
    setQueryResult(api.privacy.listDecidedRequests, [
      open({
        _id: "r9",
        status: "rejected",
        decidedAt: NOW - DAY,
        decidedByName: "Avery Chen",
        decisionReason: "Duplicate request.",
      }),
      open({ _id: "r8", type: "deletion", status: "completed", decidedAt: NOW - 2 * DAY, user: null }),
    ]);
    renderPage();
    const items = within(screen.getByRole("list", { name: "Decided requests" })).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Data export · Jordan Lee (viewer@livelocal.test)");
    expect(items[0]).toHaveTextContent("Rejected");
    expect(items[0]).toHaveTextContent(/decided May 19, 2026, \d{1,2}:\d{2}\s[AP]M by Avery Chen/);
    expect(items[0]).toHaveTextContent("Reason for the rejection: Duplicate request.");
    expect(items[1]).toHaveTextContent("Account deletion · Deleted account");
    expect(items[1]).toHaveTextContent("Completed");
  });
});

describe("admin: privacy requests, searched and approved together", () => {
  test("a search narrows the open requests by name or email, and finds everyone's history by email", async () => {
    setQueryResult(api.privacy.listOpenRequests, [
      open({ _id: "r0", type: "deletion", status: "pending_deletion", user: sam }),
      open(),
    ]);
    setQueryResult(api.privacy.searchRequests, [
      open({ _id: "r9", status: "completed", decidedAt: NOW, decidedByName: "Avery Chen" }),
    ]);
    renderPage();
    await userEvent.type(screen.getByRole("searchbox", { name: "Search by name or email" }), "JORDAN");
    expect(await screen.findByRole("heading", { name: "Requests found" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: /open requests/i, level: 2 })).toHaveTextContent(
      "Open requests(1 shown of 2)",
    );
    const items = within(screen.getByRole("list", { name: "Open requests" })).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("h3")?.textContent)).toEqual([
      "Data export · Jordan Lee (viewer@livelocal.test)",
    ]);
    expect(screen.getByRole("list", { name: "Requests found" })).toHaveTextContent("by Avery Chen");
  });

  test("open data exports are approved together; other kinds are decided one by one", async () => {
    mutationImpl.current = () => Promise.resolve({ approved: ["r1", "r2"], skipped: [] });
    setQueryResult(api.privacy.listOpenRequests, [
      open(),
      open({ _id: "r2", user: sam }),
      open({ _id: "r3", type: "deletion", status: "pending_deletion" }),
      open({ _id: "r4", decidedAt: NOW }),
    ]);
    renderPage();
    expect(screen.getAllByRole("checkbox", { name: /^Select the data export of/ })).toHaveLength(2);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all 2 data export requests" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve selected (2)" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve 2 data exports?" });
    expect(dialog).toHaveTextContent("Jordan Lee (viewer@livelocal.test)");
    expect(dialog).toHaveTextContent("sam@example.com");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve 2 data exports" }));
    expect(mutationCalls).toEqual([{ name: "privacy:approveExports", args: { requestIds: ["r1", "r2"] } }]);
    expect(
      await screen.findByText("2 data exports approved; the files are being prepared."),
    ).toBeInTheDocument();
  });
});
