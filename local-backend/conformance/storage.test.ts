/**
 * Conformance: file storage (`ctx.storage.store/get/delete`) in actions, mutations and HTTP actions;
 * upload URLs and file URLs served by the backend; HTTP actions on the backend origin under
 * `/local-backend/site`; stored files across restarts.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SITE_PREFIX, stripSitePrefix } from "../api/http-actions.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, m, newHttpClient, q, removeDir, startFixtureBackend, tempDataDir } from "./test-helpers.ts";

describe("file storage and the HTTP actions site", () => {
  const dirs: string[] = [];
  const running: RunningLocalBackend[] = [];
  const start = async (dataDir: string | null) => {
    const backend = await startFixtureBackend({ dataDir });
    running.push(backend);
    return backend;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((b) => b.stop()));
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it("strips the site prefix only from paths under it", () => {
    expect(SITE_PREFIX).toBe("/local-backend/site");
    expect(stripSitePrefix("/local-backend/site/privacy/export")).toBe("/privacy/export");
    expect(stripSitePrefix("/local-backend/site?x=1")).toBe("/?x=1");
    expect(stripSitePrefix("/local-backend/site")).toBe("/");
    expect(stripSitePrefix("/local-backend/sites/x")).toBeNull();
    expect(stripSitePrefix("/local-backend/stats")).toBeNull();
  });

  it("answers HTTP actions on the backend origin under /local-backend/site, with the caller's identity", async () => {
    const backend = await start(null);
    const { token } = await backend.issueToken({ sub: "site-user" });
    for (const base of [backend.siteUrl, `${backend.url}${SITE_PREFIX}`]) {
      const response = await fetch(`${base}/hello?name=prefix`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hello: "prefix", subject: "site-user" });
    }
    expect((await fetch(`${backend.url}${SITE_PREFIX}/nowhere`)).status).toBe(404);
  });

  it("stores, reads and deletes files in actions, mutations and HTTP actions", async () => {
    const backend = await start(null);
    const http = newHttpClient(backend.url);
    const id = (await http.action(a("files:store"), { text: "from an action" })) as string;
    expect(await http.action(a("files:read"), { id })).toBe("from an action");
    const viaSite = await fetch(`${backend.url}${SITE_PREFIX}/files?id=${encodeURIComponent(id)}`);
    expect(await viaSite.text()).toBe("from an action");

    const posted = await fetch(`${backend.siteUrl}/files`, { method: "POST", body: "from an HTTP action" });
    expect(posted.status).toBe(201);
    const { id: postedId } = (await posted.json()) as { id: string };
    expect(await http.action(a("files:read"), { id: postedId })).toBe("from an HTTP action");

    await http.mutation(m("files:remove"), { id });
    expect(await http.action(a("files:read"), { id })).toBeNull();
    expect((await fetch(`${backend.siteUrl}/files?id=${encodeURIComponent(id)}`)).status).toBe(404);
  });

  it("keeps stored files across a restart, and forgets deleted ones", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    const http = newHttpClient(first.url);
    const kept = (await http.action(a("files:store"), { text: "kept" })) as string;
    const dropped = (await http.action(a("files:store"), { text: "dropped" })) as string;
    await http.mutation(m("files:remove"), { id: dropped });
    await first.stop();
    running.splice(running.indexOf(first), 1);
    const storageDir = path.join(dataDir, "storage");
    expect(existsSync(path.join(storageDir, kept))).toBe(true);
    expect(readdirSync(storageDir)).toEqual([kept]);

    const second = await start(dataDir);
    const again = newHttpClient(second.url);
    expect(await again.action(a("files:read"), { id: kept })).toBe("kept");
    expect(await again.action(a("files:read"), { id: dropped })).toBeNull();
    const viaSite = await fetch(`${second.siteUrl}/files?id=${encodeURIComponent(kept)}`);
    expect(await viaSite.text()).toBe("kept");
  });

  it("uploads through an upload URL and serves the file at getUrl's address, as Convex does", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    const http = newHttpClient(first.url);
    const uploadUrl = (await http.mutation(m("files:uploadUrl"), {})) as string;
    expect(uploadUrl.startsWith(`${first.url}/api/storage/upload?token=`)).toBe(true);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const uploaded = await fetch(uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: png,
    });
    expect(uploaded.status).toBe(200);
    const { storageId } = (await uploaded.json()) as { storageId: string };
    expect(await http.query(q("files:metadata"), { id: storageId })).toEqual({
      size: 7,
      contentType: "image/png",
    });

    // An upload URL is good for an hour, as Convex's (file-storage.test.ts: its 401s).
    const again = await fetch(uploadUrl, { method: "POST", body: "x" });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { storageId: string }).storageId).not.toBe(storageId);
    expect(
      (await fetch(`${first.url}/api/storage/upload?token=made-up`, { method: "POST", body: "x" })).status,
    ).toBe(401);

    const url = (await http.query(q("files:url"), { id: storageId })) as string;
    expect(url.startsWith(`${first.url}/api/storage/`)).toBe(true);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    // The address cannot be guessed from the id.
    expect((await fetch(url.replace(/\/[^/]+$/, "/" + "A".repeat(43)))).status).toBe(404);
    expect((await fetch(`${first.url}/api/storage/${encodeURIComponent(storageId)}`)).status).toBe(404);

    // The file and its address outlive a restart; deleting the file ends both.
    await first.stop();
    running.splice(running.indexOf(first), 1);
    const second = await start(dataDir);
    const secondHttp = newHttpClient(second.url);
    const urlAfter = (await secondHttp.query(q("files:url"), { id: storageId })) as string;
    expect(new Uint8Array(await (await fetch(urlAfter)).arrayBuffer())).toEqual(png);
    await secondHttp.mutation(m("files:remove"), { id: storageId });
    expect(await secondHttp.query(q("files:url"), { id: storageId })).toBeNull();
    expect((await fetch(urlAfter)).status).toBe(404);
  });
});
