/**
 * Notifications outside the open tab (issue 19, decision 036), end to end: a viewer saves a show and
 * turns on e-mail and push for go-lives; the seller goes live; the local inbox holds exactly one go-live
 * e-mail whose link opens the show and whose one-click unsubscribe works; the backend sends an
 * encrypted push (RFC 8291) to a local endpoint that decrypts it; the page's service worker shows it as
 * a notification when the push is delivered through the DevTools protocol (no push service here).
 */
import { createECDH, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { ConvexHttpClient } from "convex/browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import { ownSeller } from "./own-seller";
import { baseUrl, launchBrowser, newVisitor, screenshot, takeShowLive } from "./browser";

const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt: (body: Buffer, params: { version: string; privateKey: unknown; authSecret: Buffer }) => Buffer;
};

let browser: Browser;
let pushServer: Server;
const pushes: { headers: Record<string, unknown>; body: Buffer }[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
  pushServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      pushes.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => pushServer.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => pushServer.close(resolve));
});

/** A Convex client signed in as a new person (a development token for `email`), their row made. */
async function newPersonClient(email: string): Promise<ConvexHttpClient> {
  const response = await fetch(`${baseUrl()}/local-auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sub: `local|${email}`, email, name: email.split("@")[0] }),
  });
  const { token } = (await response.json()) as { token: string };
  const client = new ConvexHttpClient(baseUrl());
  client.setAuth(token);
  await client.mutation(api.users.ensureUser, {});
  return client;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test("a saved show going live reaches the viewer by e-mail and push, once", async () => {
  const sellerUser = await ownSeller("notifications", ["SCHEDULED"]);
  const { shopSlug } = sellerUser;
  const [streamTitle = "", streamId = ""] = [sellerUser.streamTitles[0], sellerUser.streamIds[0]];
  const viewer = await newVisitor(browser);
  await viewer.context.grantPermissions(["notifications"], { origin: baseUrl() });
  const email = `pushy.${Date.now()}@example.com`;

  // Sign in as a new person and save the show.
  await viewer.page.goto("/sign-in");
  await viewer.page.getByLabel("Email").fill(email);
  await viewer.page.getByRole("button", { name: /sign in as a new user/i }).click();
  await viewer.page.waitForURL((url) => url.pathname !== "/sign-in");
  await viewer.page.goto(`/stream/${streamId}`);
  await viewer.page.getByRole("heading", { level: 1, name: streamTitle }).waitFor();
  await viewer.page.getByRole("button", { name: /^Save/ }).first().click();
  await viewer.page.getByRole("button", { name: /^Save/, pressed: true }).first().waitFor();

  // Turn on e-mail and push for go-lives.
  await viewer.page.goto("/dashboard/settings");
  for (const channel of ["E-mail", "Push"]) {
    const box = viewer.page.getByRole("checkbox", {
      name: `${channel}: A saved show or followed shop goes live`,
    });
    await box.check();
    await expect.poll(() => box.isChecked()).toBe(true);
  }
  await viewer.page.getByText(/Saved — Push/).waitFor();

  // Register a device whose push service is the local test endpoint (the browser's own would be FCM).
  const identity = await viewer.page.evaluate(() => localStorage.getItem("livelocal:local-session"));
  const tokenResponse = await viewer.page.request.post("/local-auth/token", {
    data: JSON.parse(identity ?? "{}") as unknown,
  });
  const { token } = (await tokenResponse.json()) as { token: string };
  const client = new ConvexHttpClient(baseUrl());
  client.setAuth(token);
  const receiver = createECDH("prime256v1");
  receiver.generateKeys();
  const authSecret = randomBytes(16);
  const { port } = pushServer.address() as AddressInfo;
  await client.mutation(api.push.registerDevice, {
    endpoint: `http://127.0.0.1:${port}/push/${Date.now()}`,
    p256dh: receiver.getPublicKey().toString("base64url"),
    auth: authSecret.toString("base64url"),
    label: "Test endpoint",
  });
  await viewer.page
    .getByRole("list", { name: "Push devices" })
    .getByRole("button", { name: "Remove Test endpoint" })
    .waitFor();
  await screenshot(viewer.page, "notifications-settings");

  // Someone else follows the shop, with go-live e-mail on. The fan-out tells the show's savers first and
  // the shop's followers after them, so once this follower's e-mail is in, the viewer's is settled.
  const follower = await newPersonClient(`follower.${Date.now()}@example.com`);
  const shop = await follower.query(api.liveShops.getPublicShop, { idOrSlug: shopSlug });
  await follower.mutation(api.watchList.setShopFollowed, { liveShopId: shop!._id, followed: true });
  await follower.mutation(api.notifications.setChannel, { kind: "goLive", channel: "email", on: true });

  // The seller goes live.
  const { seller } = await takeShowLive(browser, sellerUser, streamTitle);

  // Exactly one go-live e-mail in the local inbox, with a working link and one-click unsubscribe.
  // The viewer reads the mail sent to them (an admin would read everyone's).
  const mine = async () => {
    const inbox = await client.query(api.localInbox.list, {});
    expect(inbox?.scope).toBe("mine");
    return (inbox?.mail ?? []).filter((mail) => mail.to === email);
  };
  const [mail] = await until("the go-live e-mail", async () => {
    const found = await mine();
    return found.length > 0 ? found : undefined;
  });
  await until("the fan-out to reach the shop's followers", async () => {
    const inbox = await follower.query(api.localInbox.list, {});
    return inbox?.mail.some((sent) => sent.subject.includes(streamTitle)) ? true : undefined;
  });
  expect(await mine()).toHaveLength(1);
  expect(mail.subject).toContain(streamTitle);
  await viewer.page.goto("/dev/inbox");
  await viewer.page
    .getByRole("button", {
      name: new RegExp(mail.subject.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
    })
    .first()
    .click();
  await viewer.page.getByText("List-Unsubscribe-Post").waitFor();
  await screenshot(viewer.page, "notifications-local-inbox");
  const link = /href="([^"]+\/stream\/[^"]+)"/.exec(mail.html)?.[1];
  expect(link?.startsWith(baseUrl())).toBe(true);
  await viewer.page.goto(link!);
  await viewer.page.getByRole("heading", { level: 1, name: streamTitle }).waitFor();
  const unsubscribe = /^<(.+)>$/.exec(
    mail.headers.find((header) => header.name === "List-Unsubscribe")!.value,
  )![1];
  const oneClick = await viewer.page.request.post(unsubscribe.replaceAll("&amp;", "&"), {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status()).toBe(200);
  const goLive = (await client.query(api.notifications.myChannels, {})).find((row) => row.kind === "goLive");
  expect(goLive?.channels.email).toBe(false);

  // The push reached the endpoint, encrypted for this device only.
  const push = await until("the push", () => Promise.resolve(pushes[0]));
  expect(push.headers["content-encoding"]).toBe("aes128gcm");
  expect(String(push.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
  const payload = ece.decrypt(push.body, { version: "aes128gcm", privateKey: receiver, authSecret });
  const notice = JSON.parse(payload.toString("utf8")) as { title: string; path: string };
  expect(notice.title).toContain(streamTitle);

  // Delivered to the page's service worker, it shows a notification.
  await viewer.page.goto("/dashboard/settings");
  await viewer.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const cdp = await viewer.context.newCDPSession(viewer.page);
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find((registration) => !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
    void cdp.send("ServiceWorker.enable");
  });
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: new URL(baseUrl()).origin,
    registrationId,
    data: payload.toString("utf8"),
  });
  const titles = await until("the notification", async () => {
    const shown = await viewer.page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title),
    );
    return shown.length > 0 ? shown : undefined;
  });
  expect(titles).toEqual([notice.title]);

  expect(viewer.errors).toEqual([]);
  expect(seller.errors).toEqual([]);
}, 180_000);
