/**
 * Issue 38, items 1 and 8: what `npm start` serves to the public. A fresh store holds the reference data
 * only (no demo_admin) unless started with --demo-data; with --public-origin, file and upload URLs and the
 * links in e-mails name the public origin, not the address the server listens on.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { startAppServer, StartedAppServer } from "./server.ts";
import { fixtureDir } from "../../local-backend/conformance/test-helpers.ts";
import { startTestApp } from "./test-dist.ts";

const PUBLIC_ORIGIN = "https://livelocal.example";

type Options = Partial<Parameters<typeof startAppServer>[0]>;

/** The app's own functions (not the fixture's), as `npm start` serves them. */
const startApp = (options: Options) =>
  startTestApp({ functionsDir: undefined, ...options }, "livelocal-served-");

/** A function called as the operator (`npx convex run`): the admin key, optionally acting as someone. */
async function asOperator(
  app: StartedAppServer,
  kind: "query" | "mutation" | "action",
  path: string,
  args: Record<string, unknown>,
  actingAs?: Record<string, string>,
): Promise<unknown> {
  const identity = actingAs ? `:${Buffer.from(JSON.stringify(actingAs)).toString("base64")}` : "";
  const response = await fetch(`${app.url}/api/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Convex ${app.adminKey}${identity}` },
    body: JSON.stringify({ path, args: [args], format: "json" }),
  });
  const body = (await response.json()) as { status: string; value?: unknown; errorMessage?: string };
  if (body.status !== "success") throw new Error(`${path}: ${body.errorMessage ?? response.status}`);
  return body.value;
}

/** Every document of a table, as `npx convex data <table>` lists them. */
async function tableRows(app: StartedAppServer, table: string): Promise<Record<string, unknown>[]> {
  const page = (await asOperator(app, "query", "_system/cli/tableData", {
    table,
    order: "asc",
    paginationOpts: { cursor: null, numItems: 8192 },
  })) as { page: Record<string, unknown>[] };
  return page.page;
}

describe("a fresh store served by npm start", () => {
  test("holds the reference data only: metro areas and categories, no users, no demo shops or shows", async () => {
    const app = await startApp({});
    try {
      expect((await tableRows(app, "msas")).length).toBe(393);
      expect((await tableRows(app, "categories")).length).toBeGreaterThan(0);
      expect(await tableRows(app, "users")).toEqual([]);
      expect(await tableRows(app, "liveShops")).toEqual([]);
      expect(await tableRows(app, "streams")).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  test("with --demo-data, also the demo accounts (demo_admin among them), shops and shows", async () => {
    const app = await startApp({ demoData: true });
    try {
      expect((await tableRows(app, "msas")).length).toBe(393);
      const users = await tableRows(app, "users");
      expect(users.map((user) => user.clerkId)).toContain("demo_admin");
      expect((await tableRows(app, "liveShops")).length).toBeGreaterThan(0);
      expect((await tableRows(app, "streams")).length).toBeGreaterThan(0);
    } finally {
      await app.stop();
    }
  });
});

describe("npm start --public-origin", () => {
  let app: StartedAppServer;

  beforeAll(async () => {
    app = await startApp({ publicOrigin: PUBLIC_ORIGIN, demoData: true });
  });
  afterAll(async () => {
    await app?.stop();
  });

  test("e-mail and unsubscribe links point at the public origin", async () => {
    const [maria] = (await tableRows(app, "users")).filter((user) => user.clerkId === "demo_seller_maria");
    // A shop decision is e-mailed by default; the local inbox catches it.
    await asOperator(app, "mutation", "notifications:notifyPerson", {
      userId: maria._id,
      notice: {
        kind: "shopDecision",
        eventKey: "shopDecision:test",
        title: "Your shop was approved",
        body: "Welcome.",
        path: "/dashboard/liveshops",
      },
    });
    const [mail] = (await tableRows(app, "localInbox")) as {
      html: string;
      text: string;
      headers: { name: string; value: string }[];
    }[];
    expect(mail.html).toContain(`${PUBLIC_ORIGIN}/dashboard/liveshops`);
    const unsubscribe = mail.headers.find((header) => header.name === "List-Unsubscribe")?.value;
    expect(unsubscribe).toMatch(
      /^<https:\/\/livelocal\.example\/local-backend\/site\/notifications\/unsubscribe\?/,
    );
    expect(`${mail.html}${mail.text}${unsubscribe}`).not.toMatch(/127\.0\.0\.1|localhost/);
  });
});

describe("file and upload URLs", () => {
  async function uploadAndLink(app: StartedAppServer) {
    const uploadUrl = (await asOperator(app, "mutation", "files:uploadUrl", {})) as string;
    const upload = new URL(uploadUrl);
    // The public origin is the proxy's; this test reaches the same path on the server itself.
    const stored = await fetch(`${app.url}${upload.pathname}${upload.search}`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "hello",
    });
    const { storageId } = (await stored.json()) as { storageId: string };
    const fileUrl = (await asOperator(app, "query", "files:url", { id: storageId })) as string;
    const file = await fetch(`${app.url}${new URL(fileUrl).pathname}`);
    return { uploadUrl, fileUrl, fileText: await file.text() };
  }

  test("name the public origin when there is one", async () => {
    const app = await startApp({ publicOrigin: PUBLIC_ORIGIN, functionsDir: fixtureDir });
    try {
      const { uploadUrl, fileUrl, fileText } = await uploadAndLink(app);
      expect(uploadUrl).toMatch(/^https:\/\/livelocal\.example\/api\/storage\/upload\?token=/);
      expect(fileUrl).toMatch(/^https:\/\/livelocal\.example\/api\/storage\/[^/]+\/[\w-]{43}$/);
      expect(fileText).toBe("hello");
      // What the functions see as the app's origin (links they make).
      expect(await asOperator(app, "query", "env:read", { name: "LIVELOCAL_APP_ORIGIN" })).toBe(
        PUBLIC_ORIGIN,
      );
    } finally {
      await app.stop();
    }
  });

  test("name the served origin otherwise", async () => {
    const app = await startApp({ functionsDir: fixtureDir });
    try {
      const { uploadUrl, fileUrl } = await uploadAndLink(app);
      expect(uploadUrl.startsWith(`${app.url}/api/storage/upload?token=`)).toBe(true);
      expect(fileUrl.startsWith(`${app.url}/api/storage/`)).toBe(true);
      expect(await asOperator(app, "query", "env:read", { name: "LIVELOCAL_APP_ORIGIN" })).toBe(app.url);
    } finally {
      await app.stop();
    }
  });
});
