/**
 * Convex's limits on values and transactions, met through the official clients over the sync socket
 * and HTTP: exactly at a limit the call succeeds, one over it fails with Convex's words and writes
 * nothing (values/limits.ts has the numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConvexClient, ConvexHttpClient } from "convex/browser";
import type { Value } from "convex/values";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  m,
  newClient,
  newHttpClient,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
} from "./test-helpers.ts";

const MiB = 1 << 20;
const help =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

describe("Convex's limits", () => {
  let backend: RunningLocalBackend;
  let socket: ConvexClient;
  let http: ConvexHttpClient;
  /** The length of an id of `table` (this backend's ids end with their table's name). */
  let idLength: (table: string) => number;

  const dataDir = tempDataDir();

  beforeAll(async () => {
    // In a data folder, as `npm run dev` keeps it: queries and mutations then read the database in
    // their isolates (decision 092), and what they read is counted and watched as the backend's own.
    backend = await startFixtureBackend({ dataDir });
    socket = newClient(backend.url);
    http = newHttpClient(backend.url);
    const probe = (await http.mutation(m("limits:insertValue"), {
      table: "probe",
      kind: "array",
      n: 0,
    })) as string;
    idLength = (table) => probe.length - "probe".length + table.length;
  });
  afterAll(async () => {
    await socket.close();
    await backend.stop();
    removeDir(dataDir);
  });

  const clients = () =>
    [
      ["the sync socket", socket],
      ["HTTP", http],
    ] as const;

  /** Refused on both transports with `message` (after `Uncaught Error: ` unless `plain`), writing nothing. */
  async function refused(
    kind: "query" | "mutation",
    name: string,
    args: Record<string, Value>,
    message: string | RegExp,
    table?: string,
  ): Promise<void> {
    const before = table ? await http.query(q("limits:count"), { table }) : null;
    for (const [transport, client] of clients()) {
      const call = kind === "query" ? client.query(q(name), args) : client.mutation(m(name), args);
      const error = await call.then(
        () => new Error(`${transport}: ${name} was not refused`),
        (e: unknown) => e as Error,
      );
      if (typeof message === "string") expect(error.message, transport).toContain(message);
      else expect(error.message, transport).toMatch(message);
    }
    if (table) expect(await http.query(q("limits:count"), { table })).toBe(before);
  }

  const insert = (table: string, kind: string, n: number) => ({ table, kind, n });

  it("a document: 1 MiB with its system fields", async () => {
    await http.mutation(m("limits:insertSized"), { table: "size", sizes: [MiB], idLength: idLength("size") });
    await refused(
      "mutation",
      "limits:insertSized",
      { table: "size", sizes: [MiB + 1], idLength: idLength("size") },
      "Uncaught Error: Value is too large (1.00 MiB > maximum size 1 MiB)",
      "size",
    );
  });

  it("an array: 8,192 elements", async () => {
    await socket.mutation(m("limits:insertValue"), insert("arrays", "array", 8192));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("arrays", "array", 8193),
      "Uncaught Error: Invalid argument `value` for `db.insert`: Array length is too long (8193 > maximum length 8192)",
      "arrays",
    );
  });

  it("an object: 1,024 fields; a document 1,024 with _id and _creationTime", async () => {
    await socket.mutation(m("limits:insertValue"), insert("objects", "object", 1024));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("objects", "object", 1025),
      "Uncaught Error: Invalid argument `value` for `db.insert`: Object has too many fields (1025 > maximum number 1024)",
      "objects",
    );
    await socket.mutation(m("limits:insertValue"), insert("objects", "fields", 1022));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("objects", "fields", 1023),
      "Uncaught Error: Object has too many fields (1025 > maximum number 1024)",
      "objects",
    );
  });

  it("nesting: 16 levels, the document itself counted", async () => {
    await socket.mutation(m("limits:insertValue"), insert("nesting", "nested", 15));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("nesting", "nested", 16),
      /Uncaught Error: Document\(value: \{_creationTime: [0-9.]+, _id: "[^"]+", a: \[{16}1\.0\]{16}\}\) isn't a valid document: Document is too nested \(nested 17 levels deep > maximum nesting 16\)/,
      "nesting",
    );
  });

  it("field names: 1,024 characters (65 is fine, as on Convex); table names: 64", async () => {
    for (const length of [64, 65, 1024])
      await socket.mutation(m("limits:insertValue"), insert("names", "name", length));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("names", "name", 1025),
      `Uncaught Error: Field name ${"f".repeat(1025)} exceeds maximum field name length 1024.`,
      "names",
    );
    await socket.mutation(m("limits:insertValue"), insert("t".repeat(64), "array", 0));
    await refused(
      "mutation",
      "limits:insertValue",
      insert("t".repeat(65), "array", 0),
      "Uncaught Error: Invalid argument `table` for `db.insert`: Identifier is too long (65 > maximum 64)",
    );
  });

  it("bytes written: 16 MiB in one mutation", async () => {
    const sizes = [...new Array<number>(16).fill(1_000_000), 16 * MiB - 16_000_000];
    await http.mutation(m("limits:insertSized"), { table: "written", sizes, idLength: idLength("written") });
    sizes[16] += 1;
    await refused(
      "mutation",
      "limits:insertSized",
      { table: "written", sizes, idLength: idLength("written") },
      "Uncaught Error: Too many bytes written in a single function execution (limit: 16 MiB)",
      "written",
    );
  });

  it("bytes read: 16 MiB in one query", async () => {
    const sizes = [...new Array<number>(16).fill(1_000_000), 16 * MiB - 16_000_000];
    await http.mutation(m("limits:insertSized"), { table: "read", sizes, idLength: idLength("read") });
    for (const [, client] of clients())
      expect(await client.query(q("limits:count"), { table: "read" })).toBe(17);
    await http.mutation(m("limits:insertSized"), {
      table: "read",
      sizes: [39 + idLength("read")],
      idLength: idLength("read"),
    });
    await refused(
      "query",
      "limits:count",
      { table: "read" },
      `Uncaught Error: Too many bytes read in a single function execution (limit: 16777216 bytes). ${help}`,
    );
  });

  it("index ranges: 4,096 in one query", async () => {
    for (const [, client] of clients())
      expect(await client.query(q("limits:ranges"), { count: 4096 })).toBe(4096);
    await refused(
      "query",
      "limits:ranges",
      { count: 4097 },
      `Uncaught Error: Too many reads in a single function execution (limit: 4096). ${help}`,
    );
  });

  it("a function's result: 16 MiB", async () => {
    for (const [, client] of clients()) {
      expect(((await client.query(q("limits:bigResult"), { length: 16 * MiB - 2 })) as string).length).toBe(
        16 * MiB - 2,
      );
    }
    await refused(
      "query",
      "limits:bigResult",
      { length: 16 * MiB - 1 },
      "Function limits.js:bigResult return value is too large (actual: 16.00 MiB, limit: 16 MiB)",
    );
  });

  it("paginate({ maximumBytesRead }) ends a page there (SplitRequired), and recommends a split past 3/4", async () => {
    await http.mutation(m("limits:insertSized"), {
      table: "pages",
      sizes: [1000, 1000, 1000],
      idLength: idLength("pages"),
    });
    for (const [transport, client] of clients()) {
      const page = (bytes: number) =>
        client.query(q("limits:page"), {
          table: "pages",
          paginationOpts: { cursor: null, numItems: 3, maximumBytesRead: bytes },
        }) as Promise<{ page: unknown[]; pageStatus?: string | null }>;
      expect(await page(2000), transport).toMatchObject({ pageStatus: "SplitRequired" });
      expect((await page(2000)).page).toHaveLength(2);
      expect(await page(3000), transport).toMatchObject({ pageStatus: "SplitRecommended" });
      expect((await page(3000)).page).toHaveLength(3);
      expect(await page(10_000), transport).toMatchObject({ pageStatus: null });
    }
  });

  it("a nested mutation's transactionLimits: a budget over what is used, its writes undone when it fails", async () => {
    for (const [transport, client] of clients()) {
      const table = `nested${transport.length}`;
      expect(
        await client.mutation(m("limits:nestedBudget"), { table, budget: 2, writes: 2 }),
        transport,
      ).toEqual({
        error: null,
        documentsWritten: { used: 3, remaining: 16_000 - 3 },
      });
      const over = (await client.mutation(m("limits:nestedBudget"), { table, budget: 2, writes: 3 })) as {
        error: string;
        documentsWritten: { used: number };
      };
      expect(over.error, transport).toContain("Too many writes in a single function execution (limit: 3)");
      expect(over.documentsWritten.used, transport).toBe(1);
      expect(await client.query(q("limits:count"), { table })).toBe(4);
    }
  });
});
