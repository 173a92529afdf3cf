/**
 * The local inbox (decision 036): on the local backend a person reads the e-mail sent to them, an
 * admin everyone's, a signed-out visitor nothing; anywhere else there is no inbox.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const VERA = { subject: "user_vera", email: "vera@livelocal.test" };
const LEE = { subject: "user_lee", email: "lee@livelocal.test" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test" };

async function mailTo(t: ReturnType<typeof newTest>, userId: Id<"users">, to: string, subject: string) {
  await t.run(async (ctx) => {
    const notificationId = await insertWithTimestamps(ctx, "notifications", {
      userId,
      kind: "goLive",
      eventKey: `goLive:${subject}`,
      channel: "email",
      status: "sent",
      title: subject,
      body: subject,
      path: "/",
    });
    await insertWithTimestamps(ctx, "localInbox", {
      userId,
      notificationId,
      from: "LiveLocal <notices@livelocal.localhost>",
      to,
      subject,
      html: `<p>${subject}</p>`,
      text: subject,
      headers: [],
    });
  });
}

describe("localInbox.list", () => {
  beforeEach(() => {
    vi.stubEnv("LIVELOCAL_LOCAL_AUTH_ISSUER", "https://auth.livelocal.localhost");
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "");
    vi.stubEnv("RESEND_API_KEY", "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  async function setUp() {
    const t = newTest();
    const { vera, lee } = await t.run(async (ctx) => ({
      vera: await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email }),
      lee: await insertUser(ctx, { clerkId: LEE.subject, email: LEE.email }),
      ada: await insertUser(ctx, { clerkId: ADA.subject, email: ADA.email, role: "admin" }),
    }));
    await mailTo(t, vera, VERA.email, "For Vera");
    await mailTo(t, lee, LEE.email, "For Lee");
    return t;
  }
  const subjects = (inbox: { mail: { subject: string }[] } | null) =>
    inbox?.mail.map((m) => m.subject).sort();

  test("a person reads only the mail sent to them", async () => {
    const t = await setUp();
    const inbox = await t.withIdentity(VERA).query(api.localInbox.list, {});
    expect(inbox?.scope).toBe("mine");
    expect(subjects(inbox)).toEqual(["For Vera"]);
  });

  test("an admin reads everyone's", async () => {
    const t = await setUp();
    const inbox = await t.withIdentity(ADA).query(api.localInbox.list, {});
    expect(inbox?.scope).toBe("everyone");
    expect(subjects(inbox)).toEqual(["For Lee", "For Vera"]);
  });

  test("a signed-out visitor reads nothing", async () => {
    const t = await setUp();
    expect(await t.query(api.localInbox.list, {})).toEqual({ scope: "signedOut", mail: [] });
  });

  test("a deployment, or a local backend that sends for real, has no inbox", async () => {
    const t = await setUp();
    vi.stubEnv("RESEND_API_KEY", "re_123");
    expect(await t.withIdentity(ADA).query(api.localInbox.list, {})).toBeNull();
    vi.stubEnv("RESEND_API_KEY", "");
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "https://clerk.example.com");
    expect(await t.withIdentity(ADA).query(api.localInbox.list, {})).toBeNull();
  });
});
