import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, test } from "vitest";
import type { Doc, Id } from "@convex/_generated/dataModel";
import {
  CORRECTION_NOTE_REQUIRED,
  NOTHING_CORRECTED,
  REJECTION_REASON_REQUIRED,
} from "@convex/lib/validation";
import { insertUser } from "@convex/model/users";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { dueWords } from "../privacy-request-card";
import { PrivacyRequestsPage } from "../privacy-requests-page";

const convex = convexBackend();

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 4, 20, 12);

let avery: TestPerson;
let jordan: TestPerson;
let sam: Id<"users">;
let calls: SentCall[];

beforeEach(async () => {
  avery = await convex.signInAs("admin", { name: "Avery Chen" });
  jordan = await convex.addUser("viewer", { key: "viewer", name: "Jordan Lee" });
  sam = await convex.run((ctx) => insertUser(ctx, { clerkId: "test|sam", email: "sam@example.com" }));
  calls = sentCalls(convex.client);
});

type Request = Omit<Doc<"privacyRequests">, "_id" | "_creationTime" | "createdAt" | "updatedAt">;

/**
 * An open data export of Jordan's, asked two days ago and due in 28 (an hour less: the page reads the
 * clock a moment after the seed, and rounds towards the deadline), unless told.
 */
async function seedRequest(overrides: Partial<Request> = {}): Promise<Id<"privacyRequests">> {
  const now = Date.now();
  return await convex.run((ctx) =>
    ctx.db.insert("privacyRequests", {
      userId: jordan.userId,
      type: "access",
      status: "pending_export",
      requestedAt: now - 2 * DAY,
      dueAt: now + 28 * DAY - HOUR,
      ...overrides,
      createdAt: now,
      updatedAt: now,
    }),
  );
}

/** A day as the page writes it ("May 18, 2026"), in the zone the test runs in. */
function dayOf(at: number): string {
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(at);
}

function renderPage() {
  render(
    <convex.wrapper>
      <MemoryRouter initialEntries={["/dashboard/admin/privacy-requests"]}>
        <PrivacyRequestsPage />
      </MemoryRouter>
    </convex.wrapper>,
  );
}

async function card(name: RegExp) {
  return within(await screen.findByRole("listitem", { name }));
}

describe("admin: open privacy requests", () => {
  test("oldest first, with requester, dates and the overdue ones marked in words", async () => {
    const now = Date.now();
    await seedRequest({
      userId: sam,
      type: "deletion",
      status: "pending_deletion",
      requestedAt: now - 34 * DAY,
      dueAt: now - 3 * DAY + HOUR,
      reason: "Leaving the area",
    });
    const jordans = await seedRequest();
    renderPage();
    expect(screen.getByRole("heading", { name: "Privacy requests", level: 1 })).toBeInTheDocument();
    const heading = screen.getByRole("heading", { name: /open requests/i, level: 2 });
    await waitFor(() => expect(heading).toHaveTextContent("Open requests(2, 1 overdue)"));
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
    const request = (await convex.run((ctx) => ctx.db.get(jordans)))!;
    expect(items[1]).toHaveTextContent(new RegExp(`Due by${dayOf(request.dueAt)}, \\d{1,2}:\\d{2}\\s[AP]M`));
    expect(items[1]).toHaveTextContent(
      new RegExp(`Requested${dayOf(request.requestedAt)}, \\d{1,2}:\\d{2}\\s[AP]M`),
    );
  });

  test("approving an export sends the decision; an approved export shows as being prepared", async () => {
    const r1 = await seedRequest();
    // Sam's export was approved earlier and its file is still being built.
    const r4 = await seedRequest({ userId: sam, decidedAt: Date.now() - HOUR, decidedBy: avery.userId });
    renderPage();
    await userEvent.click(
      (await card(/data export · jordan/i)).getByRole("button", { name: "Approve and prepare export" }),
    );
    expect(calls).toEqual([
      { name: "privacy:decidePrivacyRequest", args: { requestId: r1, decision: "approve" } },
    ]);
    expect(await screen.findByText(/approved; the export is being prepared/i)).toBeInTheDocument();

    const prepared = await card(/data export · sam/i);
    expect(prepared.getByText(/the export is being prepared/i)).toBeInTheDocument();
    expect(prepared.queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
    // A failed build is retried by approving again.
    await userEvent.click(prepared.getByRole("button", { name: "Prepare it again" }));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({
      name: "privacy:decidePrivacyRequest",
      args: { requestId: r4, decision: "approve" },
    });
  });

  test("rejecting needs a reason, which is sent to be shown to the user", async () => {
    const r1 = await seedRequest();
    renderPage();
    const item = await card(/data export/i);
    await userEvent.click(item.getByRole("button", { name: "Reject" }));
    const note = item.getByRole("textbox", { name: "Note to the requester" });
    expect(note).toHaveAccessibleDescription(expect.stringContaining(REJECTION_REASON_REQUIRED));
    expect(calls).toEqual([]);

    await userEvent.type(note, "We could not verify it is you.");
    await userEvent.click(item.getByRole("button", { name: "Reject" }));
    expect(calls).toEqual([
      {
        name: "privacy:decidePrivacyRequest",
        args: { requestId: r1, decision: "reject", reason: "We could not verify it is you." },
      },
    ]);
    await waitFor(async () =>
      expect(await convex.run((ctx) => ctx.db.get(r1))).toMatchObject({
        status: "rejected",
        decisionReason: "We could not verify it is you.",
      }),
    );
  });

  test("a correction links to its correction screen and is approved only once something is corrected", async () => {
    const r1 = await seedRequest({ type: "correction", status: "pending_review", details: "Wrong name" });
    renderPage();
    let item = await card(/correction/i);
    expect(item.getByText("Wrong name")).toBeInTheDocument();
    expect(item.getByRole("link", { name: "Correct the data" })).toHaveAttribute(
      "href",
      `/dashboard/admin/privacy-requests/${r1}`,
    );
    expect(item.getByText("Nothing corrected yet.")).toBeInTheDocument();
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    const note = item.getByRole("textbox", { name: /what you changed/i });
    expect(note).toHaveAccessibleDescription(expect.stringContaining(CORRECTION_NOTE_REQUIRED));
    await userEvent.type(note, "Name set to Jordan Lee.");
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    expect(item.getByRole("alert")).toHaveTextContent(NOTHING_CORRECTED);
    expect(calls).toEqual([]);

    // The correction made on its screen reaches this one live.
    const corrections = [{ at: Date.now(), what: "Your name", from: "Jordn", to: "Jordan Lee" }];
    await convex.run((ctx) => ctx.db.patch(r1, { corrections }));
    item = await card(/correction/i);
    expect(await item.findByText("1 change made, shown to the requester.")).toBeInTheDocument();
    await userEvent.click(item.getByRole("button", { name: "Mark as corrected" }));
    expect(calls).toEqual([
      {
        name: "privacy:decidePrivacyRequest",
        args: { requestId: r1, decision: "approve", reason: "Name set to Jordan Lee." },
      },
    ]);
  });

  test("approving a deletion asks first and says it is irreversible", async () => {
    const r1 = await seedRequest({ type: "deletion", status: "pending_deletion" });
    renderPage();
    const approve = (await card(/account deletion/i)).getByRole("button", { name: "Approve deletion" });
    await userEvent.click(approve);
    let dialog = screen.getByRole("alertdialog", { name: "Delete this account for good?" });
    expect(dialog).toHaveTextContent("This is irreversible.");
    expect(dialog).toHaveTextContent("Jordan Lee (viewer@livelocal.test)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Go back" }));
    expect(calls).toEqual([]);

    await userEvent.click(approve);
    dialog = screen.getByRole("alertdialog", { name: "Delete this account for good?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete account" }));
    expect(calls).toEqual([
      { name: "privacy:decidePrivacyRequest", args: { requestId: r1, decision: "approve" } },
    ]);
    await waitFor(async () => expect(await convex.run((ctx) => ctx.db.get(jordan.userId))).toBeNull());
  });

  test("the server's refusal shows in the card", async () => {
    const r1 = await seedRequest();
    renderPage();
    const item = await card(/data export/i);
    // The account goes while this approval is on its way (the request stays open, from a deleted account).
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.delete(jordan.userId);
    });
    await userEvent.click(item.getByRole("button", { name: "Approve and prepare export" }));
    await release();
    expect(await item.findByRole("alert")).toHaveTextContent(
      "The person who made this request no longer has an account.",
    );
    expect((await convex.run((ctx) => ctx.db.get(r1)))?.status).toBe("pending_export");
  });

  test("due dates in words: whole days, rounded towards the deadline", () => {
    expect(dueWords(NOW + 30 * DAY - 60_000, NOW)).toEqual({ overdue: false, text: "Due in 30 days" });
    expect(dueWords(NOW + DAY / 2, NOW)).toEqual({ overdue: false, text: "Due within a day" });
    expect(dueWords(NOW - 1, NOW)).toEqual({ overdue: true, text: "Overdue by 1 day" });
    expect(dueWords(NOW - 2 * DAY - 1, NOW)).toEqual({ overdue: true, text: "Overdue by 3 days" });
  });

  test("an empty queue says so", async () => {
    renderPage();
    expect(await screen.findByText(/no open requests/i)).toBeInTheDocument();
  });
});

describe("admin: restricted accounts and decided requests", () => {
  test("a restriction is lifted after confirming", async () => {
    const restrictedAt = Date.now() - 5 * DAY;
    await convex.run((ctx) => ctx.db.patch(jordan.userId, { restrictedAt }));
    renderPage();
    const row = within(await screen.findByRole("list", { name: "Restricted accounts" })).getByRole(
      "listitem",
    );
    expect(row).toHaveTextContent(`Restricted since ${dayOf(restrictedAt)}`);
    await userEvent.click(
      within(row).getByRole("button", { name: "Lift restriction on viewer@livelocal.test" }),
    );
    const dialog = screen.getByRole("alertdialog", { name: "Lift the restriction on Jordan Lee?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Lift restriction" }));
    expect(calls).toEqual([{ name: "privacy:liftRestriction", args: { userId: jordan.userId } }]);
    expect(await screen.findByText("The restriction on Jordan Lee is lifted.")).toBeInTheDocument();
    expect((await convex.run((ctx) => ctx.db.get(jordan.userId)))?.restrictedAt).toBeUndefined();
  });

  test("the decided history shows who decided, when and why", async () => {
    const decidedAt = Date.now() - DAY;
    await seedRequest({
      status: "rejected",
      decidedAt,
      decidedBy: avery.userId,
      decisionReason: "Duplicate request.",
    });
    await seedRequest({
      userId: undefined,
      type: "deletion",
      status: "completed",
      decidedAt: Date.now() - 2 * DAY,
    });
    renderPage();
    const items = within(await screen.findByRole("list", { name: "Decided requests" })).getAllByRole(
      "listitem",
    );
    expect(items[0]).toHaveTextContent("Data export · Jordan Lee (viewer@livelocal.test)");
    expect(items[0]).toHaveTextContent("Rejected");
    expect(items[0]).toHaveTextContent(
      new RegExp(`decided ${dayOf(decidedAt)}, \\d{1,2}:\\d{2}\\s[AP]M by Avery Chen`),
    );
    expect(items[0]).toHaveTextContent("Reason for the rejection: Duplicate request.");
    expect(items[1]).toHaveTextContent("Account deletion · Deleted account");
    expect(items[1]).toHaveTextContent("Completed");
  });
});

describe("admin: privacy requests, searched and approved together", () => {
  test("a search narrows the open requests by name or email, and finds everyone's history by email", async () => {
    await seedRequest({ userId: sam, type: "deletion", status: "pending_deletion" });
    await seedRequest();
    // The history search is by email: someone whose email starts with "jordan", with a decided request.
    const other = await convex.addUser("viewer", { key: "jordan.p", name: "Jo Park" });
    await seedRequest({
      userId: other.userId,
      status: "completed",
      decidedAt: Date.now(),
      decidedBy: avery.userId,
    });
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
    const found = await screen.findByRole("list", { name: "Requests found" });
    expect(found).toHaveTextContent("Jo Park (jordan.p@livelocal.test)");
    expect(found).toHaveTextContent("by Avery Chen");
  });

  test("open data exports are approved together; other kinds are decided one by one", async () => {
    const r1 = await seedRequest();
    const r2 = await seedRequest({ userId: sam });
    await seedRequest({ userId: sam, type: "deletion", status: "pending_deletion" });
    await seedRequest({ decidedAt: Date.now(), decidedBy: avery.userId });
    renderPage();
    await screen.findByRole("list", { name: "Open requests" });
    expect(screen.getAllByRole("checkbox", { name: /^Select the data export of/ })).toHaveLength(2);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all 2 data export requests" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve selected (2)" }));
    const dialog = screen.getByRole("alertdialog", { name: "Approve 2 data exports?" });
    expect(dialog).toHaveTextContent("Jordan Lee (viewer@livelocal.test)");
    expect(dialog).toHaveTextContent("sam@example.com");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve 2 data exports" }));
    expect(calls).toEqual([{ name: "privacy:approveExports", args: { requestIds: [r1, r2] } }]);
    expect(
      await screen.findByText("2 data exports approved; the files are being prepared."),
    ).toBeInTheDocument();
  });
});
