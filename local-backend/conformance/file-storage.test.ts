/**
 * Conformance: file storage answers as Convex's does (issue 39), through the official clients and
 * plain `fetch`: byte ranges (206, 416), 30-day private caching, `Digest: sha-256=` checked on upload
 * URLs and in `ctx.storage.store`, `getMetadata`'s digest in hex, upload tokens refused with Convex's
 * 401s, Convex's texts for storage ids that are not ones and files that are not there, and a
 * component's uploads kept in that component's `_storage`.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileUrls } from "../api/file-urls.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, m, newHttpClient, q, removeDir, startFixtureBackend, tempDataDir } from "./test-helpers.ts";

const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest();
const digestHeader = (bytes: string | Uint8Array) => `sha-256=${sha256(bytes).toString("base64")}`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );

describe("file storage as Convex answers it", { timeout: 60_000 }, () => {
  const dataDir = tempDataDir();
  let backend: RunningLocalBackend;
  let http: ReturnType<typeof newHttpClient>;

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir });
    http = newHttpClient(backend.url);
  });
  afterAll(async () => {
    await backend?.stop();
    removeDir(dataDir);
  });

  const upload = async (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) => {
    const uploadUrl = (await http.mutation(m("files:uploadUrl"), {})) as string;
    return await fetch(uploadUrl, { method: "POST", body, headers });
  };
  const uploadedUrl = async (body: string | Uint8Array<ArrayBuffer>, contentType: string) => {
    const response = await upload(body, { "Content-Type": contentType });
    const { storageId } = (await response.json()) as { storageId: string };
    return { storageId, url: (await http.query(q("files:url"), { id: storageId })) as string };
  };

  it("serves a file whole with its digest and 30 days' private caching, and one byte range with 206", async () => {
    const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
    const { url } = await uploadedUrl(bytes, "audio/mpeg");

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("cache-control")).toBe("private, max-age=2592000");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("digest")).toBe(digestHeader(bytes));
    expect(whole.headers.get("content-length")).toBe("100");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);

    const part = await fetch(url, { headers: { Range: "bytes=20-29" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-type")).toBe("audio/mpeg");
    expect(part.headers.get("content-range")).toBe("bytes 20-29/100");
    expect(part.headers.get("content-length")).toBe("10");
    expect(part.headers.get("cache-control")).toBe("private, max-age=2592000");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(20, 30));

    // Open-ended, past the end and suffix ranges are the bytes the file has.
    for (const [range, contentRange, from] of [
      ["bytes=95-", "bytes 95-99/100", 95],
      ["bytes=90-200", "bytes 90-99/100", 90],
      ["bytes=-5", "bytes 95-99/100", 95],
    ] as const) {
      const answer = await fetch(url, { headers: { Range: range } });
      expect(answer.status).toBe(206);
      expect(answer.headers.get("content-range")).toBe(contentRange);
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(bytes.slice(from));
    }
  });

  it("answers 416 to a range the file cannot serve, and ignores a Range that is not in bytes", async () => {
    const bytes = Uint8Array.from({ length: 50 }, (_, i) => 255 - i);
    const { url } = await uploadedUrl(bytes, "application/octet-stream");
    for (const range of ["bytes=0-1,5-6", "bytes=50-60", "bytes=9-3", "bytes=abc"]) {
      const refused = await fetch(url, { headers: { Range: range } });
      expect(refused.status, range).toBe(416);
      expect(refused.headers.get("content-range")).toBe("bytes */50");
      expect((await refused.arrayBuffer()).byteLength).toBe(0);
    }
    const ignored = await fetch(url, { headers: { Range: "items=0-5" } });
    expect(ignored.status).toBe(200);
    expect(new Uint8Array(await ignored.arrayBuffer())).toEqual(bytes);
  });

  it("answers an empty file whole whatever range is asked, as Convex does", async () => {
    const { url } = await uploadedUrl("", "text/plain");
    const answer = await fetch(url, { headers: { Range: "bytes=0-0" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain");
    expect(answer.headers.get("content-range")).toBeNull();
    expect(answer.headers.get("content-length")).toBe("0");
    expect(answer.headers.get("cache-control")).toBe("private, max-age=2592000");
  });

  it("serves a part of an HTML or SVG file sandboxed and unsniffed, as the whole", async () => {
    const { url } = await uploadedUrl("<script>parent.stolen = 1</script>", "text/html");
    for (const [headers, status] of [
      [{}, 200],
      [{ Range: "bytes=0-7" }, 206],
    ] as const) {
      const answer = await fetch(url, { headers });
      expect(answer.status).toBe(status);
      expect(answer.headers.get("content-security-policy")).toContain("sandbox");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("refuses an upload whose Digest does not match its bytes with 400 Sha256Mismatch, storing nothing", async () => {
    const before = (await http.query(q("files:count"), {})) as number;
    const uploadUrl = (await http.mutation(m("files:uploadUrl"), {})) as string;
    const refused = await fetch(uploadUrl, {
      method: "POST",
      body: "differentdata",
      headers: { "Content-Type": "text/plain", Digest: digestHeader("helloworld") },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: "Sha256Mismatch",
      message: `Sha256 mismatch. Expected: ${sha256("helloworld").toString("base64")} Actual: ${sha256("differentdata").toString("base64")}`,
    });
    const malformed = await fetch(uploadUrl, { method: "POST", body: "x", headers: { Digest: "md5=abc" } });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe("BadHeader");
    expect(await http.query(q("files:count"), {})).toBe(before);

    // The same URL takes the upload whose digest matches (an upload URL is good for an hour, as Convex's).
    const stored = await fetch(uploadUrl, {
      method: "POST",
      body: "helloworld",
      headers: { "Content-Type": "text/plain", Digest: digestHeader("helloworld") },
    });
    expect(stored.status).toBe(200);
    expect(await http.query(q("files:count"), {})).toBe(before + 1);
  });

  it("fails ctx.storage.store given a sha256 its blob does not have, in an action and an HTTP action", async () => {
    const before = (await http.query(q("files:count"), {})) as number;
    const expected = sha256("helloworld").toString("base64");
    expect(
      await failure(http.action(a("files:storeChecked"), { text: "differentdata", sha256: expected })),
    ).toMatch(/Uncaught Error: Sha256 mismatch\. Expected: \S+ Actual: \S+/);
    const posted = await fetch(`${backend.siteUrl}/files`, {
      method: "POST",
      body: "differentdata",
      headers: { Digest: digestHeader("helloworld") },
    });
    expect(posted.status).toBe(500);
    expect(await posted.text()).toContain("Sha256 mismatch");
    expect(await http.query(q("files:count"), {})).toBe(before);

    const id = await http.action(a("files:storeChecked"), { text: "helloworld", sha256: expected });
    expect(await http.action(a("files:read"), { id })).toBe("helloworld");
    const accepted = await fetch(`${backend.siteUrl}/files`, {
      method: "POST",
      body: "helloworld",
      headers: { Digest: digestHeader("helloworld") },
    });
    expect(accepted.status).toBe(201);
  });

  it("gives getMetadata's sha256 in hex, while the _storage document keeps it in base64", async () => {
    const { storageId } = await uploadedUrl("helloworld", "text/plain");
    const expected = {
      storageId,
      sha256: sha256("helloworld").toString("hex"),
      size: 10,
      contentType: "text/plain",
    };
    expect(await http.query(q("files:storageMetadata"), { id: storageId })).toEqual(expected);
    expect(await http.action(a("files:storageMetadataInAction"), { id: storageId })).toEqual(expected);
    expect(await http.query(q("files:storedDigest"), { id: storageId })).toBe(
      sha256("helloworld").toString("base64"),
    );
  });

  it("refuses upload tokens with Convex's 401s: not one, and over an hour old", async () => {
    const invalid = await fetch(`${backend.url}/api/storage/upload?token=coffee`, {
      method: "POST",
      body: "helloworld",
    });
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({
      code: "StorageTokenInvalid",
      message: "Couldn't decode the StoreFileAuthorization token",
    });
    // A URL issued two hours ago with this backend's own secret (kept in its data folder).
    const earlier = new FileUrls(
      () => backend.url,
      dataDir,
      () => Date.now() - 2 * 60 * 60_000,
    );
    const expired = await fetch(earlier.uploadUrl(), { method: "POST", body: "helloworld" });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      code: "StorageTokenExpired",
      message: "Store File Authorization expired",
    });
    const tampered = earlier.uploadUrl().replace(/token=[^.]+/, (token) => `${token}A`);
    expect(
      ((await (await fetch(tampered, { method: "POST", body: "x" })).json()) as { code: string }).code,
    ).toBe("StorageTokenInvalid");
    const missing = await fetch(`${backend.url}/api/storage/upload`, { method: "POST", body: "x" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code: string }).code).toBe("BadQueryArgs");
  });

  it("says what Convex says of storage ids that are not ones, and of files that are not there", async () => {
    expect(await failure(http.query(q("files:storageMetadata"), { id: "INVALID" }))).toContain(
      `Invalid argument \`storageId\` for \`storage.getMetadata\`: Invalid storage ID: "INVALID". Storage ID should be an\n                    Id of '_storage' table, or a UUID string.`,
    );
    expect(await failure(http.action(a("files:storageMetadataInAction"), { id: "INVALID" }))).toMatch(
      /Invalid storage ID: "INVALID"/,
    );
    expect(await failure(http.mutation(m("files:removeAny"), { id: "nonsense" }))).toContain(
      "Invalid argument `storageId` for `storage.delete`",
    );
    const messageId = (await http.mutation(m("messages:send"), { channel: "files", body: "x" })) as string;
    expect(await failure(http.query(q("files:storageMetadata"), { id: messageId }))).toContain(
      "Invalid storage ID. Storage ID cannot be an ID on any table other than '_storage'.",
    );
    // A UUID is an id Convex still takes (its files' old ids): it names no file here.
    expect(
      await http.query(q("files:storageMetadata"), { id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" }),
    ).toBeNull();

    const { storageId, url } = await uploadedUrl("specialrelativity", "text/plain");
    expect(await http.mutation(m("files:removeAny"), { id: storageId })).toBeNull();
    expect(await failure(http.mutation(m("files:removeAny"), { id: storageId }))).toMatch(
      new RegExp(`Uncaught Error: storage id ${storageId} not found`),
    );
    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ code: "FileNotFound", message: `File ${storageId} not found` });
  });
});

describe("file storage in a component", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  let http: ReturnType<typeof newHttpClient>;

  beforeAll(async () => {
    const functionsDir = path.join(import.meta.dirname, "test-fixture", "ts-components", "convex");
    backend = await startFixtureBackend({ functionsDir });
    http = newHttpClient(backend.url);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("keeps a file uploaded through the component's upload URL in the component's _storage, served at its own URL", async () => {
    const uploadUrl = (await http.mutation(m("files:componentUploadUrl"), {})) as string;
    expect(uploadUrl.startsWith(`${backend.url}/api/storage/upload?token=`)).toBe(true);
    const posted = await fetch(uploadUrl, {
      method: "POST",
      body: "helloworld",
      headers: { "Content-Type": "text/plain" },
    });
    expect(posted.status).toBe(200);
    const { storageId } = (await posted.json()) as { storageId: string };

    expect(await http.query(q("files:componentFiles"), {})).toEqual([{ _id: storageId, size: 10 }]);
    expect(await http.query(q("files:appFiles"), {})).toEqual([]);
    expect(await http.query(q("files:appUrl"), { id: storageId })).toBeNull();

    const url = (await http.query(q("files:componentUrl"), { id: storageId })) as string;
    expect(url).toMatch(new RegExp(`^${backend.url}/api/storage/.*\\?component=counter$`));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("helloworld");
    // The address is the component's: without its component, or for another one, there is no file.
    expect((await fetch(url.replace(/\?component=.*$/, ""))).status).toBe(404);
    expect((await fetch(url.replace(/\?component=.*$/, "?component=broken"))).status).toBe(404);
  });

  it("keeps a file the component stores in its own _storage (as it did before upload URLs knew their component)", async () => {
    const before = ((await http.query(q("files:componentFiles"), {})) as unknown[]).length;
    const storageId = await http.action(a("files:componentStore"), { text: "stored" });
    const files = (await http.query(q("files:componentFiles"), {})) as { _id: string }[];
    expect(files).toHaveLength(before + 1);
    expect(files.map(({ _id }) => _id)).toContain(storageId);
    expect(await http.query(q("files:appFiles"), {})).not.toContain(storageId);
  });
});
