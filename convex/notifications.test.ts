/**
 * Notifications outside the open tab (issue 19, decision 036): who gets what on which channel, that
 * nothing is sent twice or to someone who opted out, restricted or over their hourly allowance, and
 * that the unsubscribe link works only for its person.
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import {
  leadTimeWords,
  shopClosedTargets,
  shopDecisionTargets,
  privacyDecisionTargets,
} from "./model/noticeEvents";
import { composeEmail, deliverNotice, unsubscribeToken, type Notice } from "./model/notifications";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { createSellerWithShop, newTest, withNotificationTestEnv } from "./test.setup";

type Backend = ReturnType<typeof newTest>;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 18);
const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const VERA = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera" };
const LEE = { subject: "user_lee", email: "lee@livelocal.test", name: "Lee" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada" };

async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    const { userId: sarahId, liveShopId } = await createSellerWithShop(ctx, { status: "active" });
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + 2 * HOUR,
      streamStopUTC: Date.now() + 3 * HOUR,
    });
    const vera = await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email });
    const lee = await insertUser(ctx, { clerkId: LEE.subject, email: LEE.email });
    await insertWithTimestamps(ctx, "savedStreams", { userId: vera, streamId });
    await insertWithTimestamps(ctx, "shopFollows", { userId: lee, liveShopId });
    return { sarahId, liveShopId, streamId, vera, lee };
  });
}

async function turnOn(
  t: Backend,
  identity: typeof VERA,
  channels: ("email" | "push" | "inApp")[],
  kind: Notice["kind"] = "goLive",
) {
  for (const channel of channels) {
    await t.withIdentity(identity).mutation(api.notifications.setChannel, {
      kind,
      channel,
      on: true,
      appOrigin: "http://127.0.0.1:5173",
    });
  }
}

async function inbox(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("localInbox").collect());
}

async function ledger(t: Backend, userId: Id<"users">) {
  return (await t.run(async (ctx) => await ctx.db.query("notifications").collect()))
    .filter((row) => row.userId === userId)
    .map((row) => `${row.eventKey.split(":")[0]}/${row.channel}/${row.status}`)
    .sort();
}

async function setStatus(t: Backend, streamId: Id<"streams">, status: Doc<"streams">["streamStatus"]) {
  await t.withIdentity(SARAH).mutation(api.streams.setStreamStatus, { streamId, status });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

withNotificationTestEnv(NOW);

describe("a show going live", () => {
  test("e-mails the saver who asked, once, with a link to the show and a one-click unsubscribe", async () => {
    const t = newTest();
    const { streamId, vera, lee } = await setUp(t);
    await turnOn(t, VERA, ["email", "push"]);

    await setStatus(t, streamId, "LIVE");
    // The fan-out running again (a retry) sends nothing more.
    await t.mutation(internal.goLiveAlerts.fanOut, { streamId, phase: "saved", cursor: null });
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const mail = await inbox(t);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: VERA.email, subject: "Sarah's Vintage is live: Denim drop" });
    expect(mail[0].html).toContain(`http://127.0.0.1:5173/stream/${streamId}`);
    const headers = Object.fromEntries(mail[0].headers.map(({ name, value }) => [name, value]));
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(
      /^<http:\/\/127\.0\.0\.1:5173\/local-backend\/site\/notifications\/unsubscribe\?u=.+&k=goLive&t=[\w-]+>$/,
    );
    expect(await ledger(t, vera)).toEqual(["goLive/email/sent", "goLive/push/sent"]);
    // Lee follows but kept the defaults: in the app only (the tab alert), no e-mail, no push.
    expect(await ledger(t, lee)).toEqual([]);
    const alerts = await t.run(async (ctx) => await ctx.db.query("goLiveAlerts").collect());
    expect(alerts.map((alert) => alert.userId).sort()).toEqual([vera, lee].sort());
  });

  test("tells no one who turned every channel off, and no one restricted", async () => {
    const t = newTest();
    const { streamId, vera, lee } = await setUp(t);
    await turnOn(t, VERA, ["email"]);
    await t
      .withIdentity(LEE)
      .mutation(api.notifications.setChannel, { kind: "goLive", channel: "inApp", on: false });
    await t.run(async (ctx) => await ctx.db.patch("users", vera, { restrictedAt: NOW - HOUR }));

    await setStatus(t, streamId, "LIVE");

    expect(await inbox(t)).toEqual([]);
    expect(await ledger(t, vera)).toEqual([]);
    expect(await ledger(t, lee)).toEqual([]);
    expect(await t.run(async (ctx) => await ctx.db.query("goLiveAlerts").collect())).toEqual([]);
  });
});

describe("limits", () => {
  test("at most six e-mail or push notices an hour per person; the rest are recorded, not sent", async () => {
    const t = newTest();
    const { vera } = await setUp(t);
    await turnOn(t, VERA, ["email"]);
    const sent = await t.run(async (ctx) => {
      const outcomes = [];
      for (let i = 0; i < 8; i++) {
        outcomes.push(
          await deliverNotice(ctx, vera, {
            kind: "goLive",
            eventKey: `goLive:event${i}`,
            title: `Show ${i}`,
            body: "",
            path: "/",
          }),
        );
      }
      return outcomes.map((channels) => channels.join(","));
    });
    // In the app is free; e-mail stops after six.
    expect(sent).toEqual([...Array<string>(6).fill("inApp,email"), "inApp", "inApp"]);
    expect(await inbox(t)).toHaveLength(6);
    expect((await ledger(t, vera)).filter((row) => row.endsWith("limited"))).toHaveLength(2);
  });
});

describe("the hourly allowance is for sellers' activity, not for news about one's own account", () => {
  test("after six go-lives an hour, a privacy decision and a shop decision still go out; a seventh go-live does not", async () => {
    const t = newTest();
    const { vera } = await setUp(t);
    await turnOn(t, VERA, ["email"]);
    await turnOn(t, VERA, ["email"], "reminder1h");
    const notice = (kind: Notice["kind"], key: string): Notice => ({
      kind,
      eventKey: `${kind}:${key}`,
      title: key,
      body: "",
      path: "/",
    });
    const sent = await t.run(async (ctx) => {
      const outcomes: string[] = [];
      const send = async (n: Notice) => outcomes.push((await deliverNotice(ctx, vera, n)).join(","));
      for (let i = 0; i < 3; i++) await send(notice("goLive", `show${i}`));
      for (let i = 0; i < 3; i++) await send(notice("reminder1h", `show${i}`));
      // The allowance is spent: account news still arrives (e-mail on by default for these kinds).
      await send(notice("privacyDecision", "export"));
      await send(notice("shopDecision", "approved"));
      await send(notice("streamModerated", "ended"));
      await send(notice("goLive", "show7"));
      return outcomes;
    });
    expect(sent).toEqual([
      ...Array<string>(3).fill("inApp,email"),
      // One-hour reminders are off in the app unless chosen; Vera chose e-mail only.
      ...Array<string>(3).fill("email"),
      "inApp,email",
      "inApp,email",
      "inApp,email",
      "inApp",
    ]);
    const mail = await inbox(t);
    expect(mail.map((email) => email.subject).slice(-3)).toEqual(["export", "approved", "ended"]);
    expect((await ledger(t, vera)).filter((row) => row.endsWith("limited"))).toEqual([
      "goLive/email/limited",
    ]);
  });
});

describe("a shop closing (issue 41)", () => {
  async function closedBy(t: Backend, liveShopId: Id<"liveShops">, status: "inactive" | "suspended") {
    if (status === "inactive") {
      await t.withIdentity(SARAH).mutation(api.liveShops.setShopStatus, { liveShopId, status });
    } else {
      await t.run(
        async (ctx) => await insertUser(ctx, { clerkId: ADA.subject, email: ADA.email, role: "admin" }),
      );
      await t
        .withIdentity(ADA)
        .mutation(api.liveShops.setShopStatus, { liveShopId, status, reason: "Counterfeit goods reported." });
    }
    await t.finishAllScheduledFunctions(vi.runAllTimers);
  }

  test("tells its followers and the savers of its shows once each, in the app unless they chose more", async () => {
    const t = newTest();
    const { liveShopId, vera, lee, sarahId } = await setUp(t);
    // Vera saved a show and follows the shop too: she hears once, and by e-mail, as she asked.
    await t.run(async (ctx) => await insertWithTimestamps(ctx, "shopFollows", { userId: vera, liveShopId }));
    await turnOn(t, VERA, ["email"], "shopClosed");

    await closedBy(t, liveShopId, "inactive");

    expect(await ledger(t, vera)).toEqual(["shopClosed/email/sent", "shopClosed/inApp/sent"]);
    expect(await ledger(t, lee)).toEqual(["shopClosed/inApp/sent"]);
    expect(await ledger(t, sarahId)).toEqual([]);
    const notices = await t.withIdentity(LEE).query(api.notifications.myNotices, {});
    expect(notices).toEqual([
      expect.objectContaining({
        kind: "shopClosed",
        title: "Sarah's Vintage closed its shop",
        body: "Sarah's Vintage closed its shop on LiveLocal, so its shows are off your watch list.",
        path: "/watch-list",
      }),
    ]);
    const mail = await inbox(t);
    expect(mail.map((email) => [email.to, email.subject])).toEqual([
      [VERA.email, "Sarah's Vintage closed its shop"],
    ]);
    expect(mail[0].text).toContain("http://127.0.0.1:5173/watch-list");
  });

  test("a suspension says the shop is off LiveLocal for now, never the admin's reason", async () => {
    const t = newTest();
    const { liveShopId, lee } = await setUp(t);
    await closedBy(t, liveShopId, "suspended");
    const notices = await t.withIdentity(LEE).query(api.notifications.myNotices, {});
    expect(notices.map(({ title, body }) => ({ title, body }))).toEqual([
      {
        title: "Sarah's Vintage is off LiveLocal for now",
        body: "Sarah's Vintage was taken off LiveLocal for now, so its shows are off your watch list.",
      },
    ]);
    expect(JSON.stringify(await ledger(t, lee))).not.toContain("Counterfeit");
  });

  test("respects the switches: someone who turned it off hears nothing", async () => {
    const t = newTest();
    const { liveShopId, lee, vera } = await setUp(t);
    await t
      .withIdentity(LEE)
      .mutation(api.notifications.setChannel, { kind: "shopClosed", channel: "inApp", on: false });
    await closedBy(t, liveShopId, "inactive");
    expect(await ledger(t, lee)).toEqual([]);
    expect(await ledger(t, vera)).toEqual(["shopClosed/inApp/sent"]);
  });

  test("a shop hidden because its owner's processing is restricted is not announced", async () => {
    const t = newTest();
    const { liveShopId, lee, vera } = await setUp(t);
    const shop = await t.run(async (ctx) => (await ctx.db.get("liveShops", liveShopId))!);
    expect(shopClosedTargets(shop, { ...shop, ownerRestricted: true })).toEqual([]);
    expect(shopClosedTargets({ ...shop, status: "draft" }, { ...shop, status: "inactive" })).toEqual([]);
    expect(shopClosedTargets(shop, { ...shop, status: "maintenance" })).toEqual([]);
    await t.run(async (ctx) => await ctx.db.patch("users", lee, { restrictedAt: NOW }));
    await closedBy(t, liveShopId, "inactive");
    // Lee is restricted himself: nothing reaches him; Vera, who saved a show, hears.
    expect(await ledger(t, lee)).toEqual([]);
    expect(await ledger(t, vera)).toEqual(["shopClosed/inApp/sent"]);
  });
});

describe("unsubscribe", () => {
  test("the link's token turns that kind's e-mail off for its person only", async () => {
    const t = newTest();
    const { vera, lee } = await setUp(t);
    await turnOn(t, VERA, ["email"]);
    const token = await unsubscribeToken(vera, "goLive");

    expect(await t.mutation(internal.notifications.unsubscribe, { userId: lee, kind: "goLive", token })).toBe(
      false,
    );
    expect(
      await t.mutation(internal.notifications.unsubscribe, { userId: vera, kind: "weeklyDigest", token }),
    ).toBe(false);
    expect(
      await t.mutation(internal.notifications.unsubscribe, { userId: "nonsense", kind: "goLive", token }),
    ).toBe(false);
    expect(
      await t.mutation(internal.notifications.unsubscribe, { userId: vera, kind: "goLive", token }),
    ).toBe(true);

    const channels = await t.withIdentity(VERA).query(api.notifications.myChannels, {});
    expect(channels.find((row) => row.kind === "goLive")?.channels).toEqual({
      inApp: true,
      email: false,
      push: false,
    });
  });
});

describe("show changes, decisions", () => {
  test("a saved show cancelled tells its saver in the app (the default), once", async () => {
    const t = newTest();
    const { streamId, vera } = await setUp(t);
    await setStatus(t, streamId, "CANCELLED");
    expect(await ledger(t, vera)).toEqual(["showChanged/inApp/sent"]);
    const notices = await t.withIdentity(VERA).query(api.notifications.myNotices, {});
    expect(notices.map((notice) => notice.title)).toEqual(["Cancelled: Denim drop"]);
    expect(await t.withIdentity(LEE).query(api.notifications.myNotices, {})).toEqual([]);
    expect(await t.query(api.notifications.myNotices, {})).toEqual([]);
  });

  test("a shop's review and a privacy decision go to their person, with the reason", async () => {
    const t = newTest();
    const { liveShopId, sarahId } = await setUp(t);
    const shop = await t.run(async (ctx) => (await ctx.db.get("liveShops", liveShopId))!);
    const pending = { ...shop, status: "pending_verification" as const };
    const [rejected] = shopDecisionTargets(pending, {
      ...shop,
      status: "draft",
      statusReason: "Blurry logo",
    });
    expect(rejected).toMatchObject({ to: "person", userId: sarahId, notice: { kind: "shopDecision" } });
    expect(rejected?.notice.body).toContain("Blurry logo");
    expect(shopDecisionTargets(pending, shop)[0]?.notice.title).toBe(
      "Your shop Sarah's Vintage was approved",
    );
    expect(shopDecisionTargets(shop, { ...shop, headline: "New" })).toEqual([]);

    const request = {
      _id: "r" as Id<"privacyRequests">,
      _creationTime: 0,
      userId: sarahId,
      type: "access" as const,
      status: "pending_export" as const,
      requestedAt: NOW,
      dueAt: NOW,
      createdAt: NOW,
      updatedAt: NOW,
    };
    expect(privacyDecisionTargets(request, { ...request, status: "completed" })[0]?.notice.title).toBe(
      "Your data export request was carried out",
    );
    expect(privacyDecisionTargets(request, { ...request, status: "pending_export" })).toEqual([]);

    await t.mutation(internal.notifications.notifyPerson, {
      userId: sarahId,
      notice: shopDecisionTargets(pending, { ...shop, status: "draft", statusReason: "Blurry logo" })[0]
        .notice,
    });
    const mail = await inbox(t);
    expect(mail.map((email) => email.to)).toEqual([SARAH.email]);
    expect(mail[0].text).toContain("Reason: Blurry logo");
  });
});

describe("reminders", () => {
  async function scheduleSavedShow(t: Backend, title: string, startsIn: number) {
    await t.run(async (ctx) => {
      const shop = await ctx.db.query("liveShops").first();
      const vera = await ctx.db
        .query("users")
        .withIndex("by_clerkId", (q) => q.eq("clerkId", VERA.subject))
        .unique();
      const streamId = await insertStream(ctx, {
        liveShopId: shop!._id,
        streamTitle: title,
        streamStatus: "SCHEDULED",
        streamStartUTC: NOW + startsIn,
        streamStopUTC: NOW + startsIn + HOUR,
      });
      await insertWithTimestamps(ctx, "savedStreams", { userId: vera!._id, streamId });
    });
  }

  test("say the time really left: a show scheduled 11 minutes ahead is not 'about an hour' away", async () => {
    const t = newTest();
    await setUp(t);
    await turnOn(t, VERA, ["inApp"], "reminder1h");
    await scheduleSavedShow(t, "Late drop", 11 * 60_000);
    await scheduleSavedShow(t, "On-time drop", 58 * 60_000);
    await scheduleSavedShow(t, "Last call", 7 * 60_000);
    await t.mutation(internal.notifications.sendReminders, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const notices = await t.withIdentity(VERA).query(api.notifications.myNotices, {});
    const byTitle = new Map(notices.map((notice) => [notice.title, notice.body]));
    expect([...byTitle.keys()].sort()).toEqual([
      "Starting in 11 minutes: Late drop",
      "Starting in 7 minutes: Last call",
      "Starting in about an hour: On-time drop",
    ]);
    // The start itself, in the shop's zone (New York's by default, 18:11 UTC on Nov 21), for a notice read later.
    expect(byTitle.get("Starting in 11 minutes: Late drop")).toBe(
      '"Late drop" from Sarah\'s Vintage, a show you saved, starts in 11 minutes (Sat, Nov 21, 1:11 PM EST).',
    );
  });

  test("round the lead to whole minutes, never below one", () => {
    expect(leadTimeWords(60 * 60_000)).toBe("in about an hour");
    expect(leadTimeWords(50 * 60_000)).toBe("in about an hour");
    expect(leadTimeWords(49 * 60_000)).toBe("in 49 minutes");
    expect(leadTimeWords(11 * 60_000 + 20_000)).toBe("in 11 minutes");
    expect(leadTimeWords(40_000)).toBe("in a minute");
    expect(leadTimeWords(5_000)).toBe("in a minute");
  });
});

describe("where e-mail links point", () => {
  async function goLiveMail(t: Backend) {
    const { streamId } = await setUp(t);
    await turnOn(t, VERA, ["email"]);
    await setStatus(t, streamId, "LIVE");
    const [mail] = await inbox(t);
    const headers = Object.fromEntries(mail.headers.map(({ name, value }) => [name, value]));
    return { streamId, mail, unsubscribe: headers["List-Unsubscribe"] };
  }

  test("at the origin the local backend serves (or its public origin), not where the person last chose", async () => {
    vi.stubEnv("LIVELOCAL_APP_ORIGIN", "https://livelocal.example");
    const { streamId, mail, unsubscribe } = await goLiveMail(newTest());
    expect(mail.html).toContain(`https://livelocal.example/stream/${streamId}`);
    expect(mail.text).not.toContain("127.0.0.1");
    expect(unsubscribe).toMatch(
      /^<https:\/\/livelocal\.example\/local-backend\/site\/notifications\/unsubscribe\?/,
    );
  });

  test("for a seller who never touched a switch: a rejected shop's e-mail links to the deployment's app", async () => {
    vi.stubEnv("LIVELOCAL_APP_ORIGIN", "https://market.livelocal.example");
    const t = newTest();
    const { sarahId, liveShopId } = await setUp(t);
    const shop = await t.run(async (ctx) => (await ctx.db.get("liveShops", liveShopId))!);
    const sarah = await t.run(async (ctx) => await ctx.db.get("users", sarahId));
    // Sarah never opened settings: no origin of hers to fall back on.
    expect(sarah?.notificationPreferences.appOrigin).toBeUndefined();
    const [rejected] = shopDecisionTargets(
      { ...shop, status: "pending_verification" },
      { ...shop, status: "draft", statusReason: "Blurry logo" },
    );
    await t.mutation(internal.notifications.notifyPerson, { userId: sarahId, notice: rejected.notice });
    const [mail] = await inbox(t);
    const headers = Object.fromEntries(mail.headers.map(({ name, value }) => [name, value]));
    expect(mail.html).toContain('href="https://market.livelocal.example/dashboard/liveshops"');
    expect(headers["List-Unsubscribe"]).toMatch(
      /^<https:\/\/market\.livelocal\.example\/local-backend\/site\/notifications\/unsubscribe\?u=/,
    );
    expect(`${mail.html}${mail.text}`).not.toMatch(/127\.0\.0\.1|localhost/);
  });

  test("on Convex: the app at APP_ORIGINS, the unsubscribe at the deployment's own HTTP actions", async () => {
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "https://clerk.livelocal.example");
    vi.stubEnv("APP_ORIGINS", "https://livelocal.example");
    vi.stubEnv("CONVEX_SITE_URL", "https://happy-otter-123.convex.site");
    const t = newTest();
    const { sarahId, liveShopId } = await setUp(t);
    const { sarah, shop } = await t.run(async (ctx) => ({
      sarah: (await ctx.db.get("users", sarahId))!,
      shop: (await ctx.db.get("liveShops", liveShopId))!,
    }));
    const [suspended] = shopDecisionTargets(shop, { ...shop, status: "suspended", statusReason: "Fakes" });
    const email = await composeEmail(sarah, suspended.notice);
    expect(email.text).toContain("Open in LiveLocal: https://livelocal.example/dashboard/liveshops");
    expect(email.headers[0].value).toMatch(
      /^<https:\/\/happy-otter-123\.convex\.site\/notifications\/unsubscribe\?u=/,
    );
  });

  test("at the deployment's APP_ORIGINS first", async () => {
    vi.stubEnv("APP_ORIGINS", "https://app.example, https://www.app.example");
    const { streamId, mail } = await goLiveMail(newTest());
    expect(mail.html).toContain(`https://app.example/stream/${streamId}`);
    expect(mail.html).not.toContain("127.0.0.1");
  });

  test("nowhere it has to guess: with no origin known the e-mail fails, naming APP_ORIGINS", async () => {
    vi.stubEnv("LIVELOCAL_APP_ORIGIN", "");
    const t = newTest();
    const { sarahId, liveShopId } = await setUp(t);
    const shop = await t.run(async (ctx) => (await ctx.db.get("liveShops", liveShopId))!);
    const notice = shopDecisionTargets({ ...shop, status: "pending_verification" }, shop)[0].notice;
    await expect(
      t.mutation(internal.notifications.notifyPerson, { userId: sarahId, notice }),
    ).rejects.toThrow(/APP_ORIGINS is not set/);
    expect(await inbox(t)).toEqual([]);
  });
});

describe("who may call", () => {
  test("signed out: no switches, no notices; a mutation refuses", async () => {
    const t = newTest();
    await setUp(t);
    expect(await t.query(api.notifications.myChannels, {})).toEqual([]);
    await expect(
      t.mutation(api.notifications.setChannel, { kind: "goLive", channel: "email", on: true }),
    ).rejects.toThrow();
  });
});

describe("Resend's webhook", () => {
  test("answers 500 until it is set up, 400 to a bad signature, and writes nothing", async () => {
    const t = newTest();
    const post = () =>
      t.fetch("/resend-webhook", {
        method: "POST",
        headers: {
          "svix-id": "msg_1",
          "svix-timestamp": `${Math.floor(NOW / 1000)}`,
          "svix-signature": "v1,bad",
        },
        body: JSON.stringify({ type: "email.complained", created_at: "", data: {} }),
      });
    expect((await post()).status).toBe(500);
    vi.stubEnv("RESEND_API_KEY", "re_test");
    vi.stubEnv("RESEND_WEBHOOK_SECRET", `whsec_${btoa("a secret of enough bytes")}`);
    expect((await post()).status).toBe(400);
  });

  test("a complaint or a hard bounce turns the person's e-mail off for every kind; a delivery does not", async () => {
    const t = newTest();
    await setUp(t);
    await turnOn(t, VERA, ["email"]);
    const event = (type: string, bounce?: string) => ({
      id: "email1" as never,
      event: {
        type,
        created_at: "2026-11-21T18:00:00.000Z",
        data: {
          created_at: "2026-11-21T18:00:00.000Z",
          email_id: "re_1",
          from: "LiveLocal <notifications@livelocal.test>",
          to: [`Vera <${VERA.email}>`],
          subject: "Sarah's Vintage is live",
          ...(bounce && { bounce: { type: bounce, message: "", subType: "" } }),
        },
      } as never,
    });
    const emailOn = async () =>
      (await t.withIdentity(VERA).query(api.notifications.myChannels, {}))
        .filter((row) => row.channels.email)
        .map((row) => row.kind);

    await t.mutation(internal.notifications.onEmailEvent, event("email.delivered"));
    await t.mutation(internal.notifications.onEmailEvent, event("email.bounced", "Transient"));
    expect(await emailOn()).toEqual(["goLive", "shopDecision", "streamModerated", "privacyDecision"]);
    await t.mutation(internal.notifications.onEmailEvent, event("email.complained"));
    expect(await emailOn()).toEqual([]);
  });
});
