import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalBackend, type LocalBackendEngine } from "./engine.ts";
import type { AnySchema } from "./schema.ts";
import { createViteFunctionSource, type FunctionSource } from "./modules.ts";

const functionsDir = path.join(import.meta.dirname, "..", "conformance", "test-fixture", "convex");

describe("engine", () => {
  let source: FunctionSource;
  let engine: LocalBackendEngine;

  beforeAll(async () => {
    source = await createViteFunctionSource({ functionsDir });
    const schema = (await source.load("schema"))?.default as AnySchema;
    engine = await createLocalBackend({ schema, modules: source.modules() });
  });
  afterAll(async () => {
    await source.close();
  });

  it("runs a mutation and a query, tracking tables and logs", async () => {
    const sent = await engine.call(
      "messages:send",
      { channel: "a", body: "hi" },
      { publicOnly: true, kind: "mutation" },
    );
    expect(sent.success).toBe(true);
    expect([...sent.writes.tables]).toEqual(["messages"]);
    expect(sent.logLines).toEqual(["[INFO] sending hi"]);
    const listed = await engine.call("messages:list", { channel: "a" }, { publicOnly: true, kind: "query" });
    expect(listed).toMatchObject({ success: true, value: [{ author: "anonymous", body: "hi" }] });
    expect([...listed.readTables]).toEqual(["messages"]);
    expect(listed.docsRead).toBe(1);
    expect(listed.logLines).toEqual(["[LOG] listing a"]);
  });

  it("refuses internal functions and wrong kinds", async () => {
    const secret = await engine.call("messages:secret", {}, { publicOnly: true });
    expect(secret).toMatchObject({ success: false });
    expect(!secret.success && secret.errorMessage).toMatch(
      /Could not find public function for 'messages:secret'/,
    );
    // A path without a function names the module alone, as Convex's message does.
    const typo = await engine.call("notARegisteredUdf", {}, { publicOnly: true });
    expect(!typo.success && typo.errorMessage).toMatch(
      /Could not find public function for 'notARegisteredUdf'\./,
    );
    const wrongKind = await engine.call(
      "messages:list",
      { channel: "a" },
      { publicOnly: true, kind: "mutation" },
    );
    expect(!wrongKind.success && wrongKind.errorMessage).toMatch(/as Mutation, but it is defined as Query/);
  });

  it("keeps each open query's own id while another closes and a new one opens", async () => {
    for (const body of ["one", "two", "three"]) {
      await engine.call("messages:send", { channel: "interleave", body });
    }
    const result = await engine.call("messages:interleaved", {});
    expect(result).toMatchObject({ success: true });
    const [first, second, third, secondNext] = (result as { value: (string | null)[] }).value;
    expect(first).toBe(third);
    // The descending query carries on where it was, unaffected by the queries around it.
    expect(secondNext).not.toBe(second);
    expect(secondNext).not.toBeNull();
  });

  it("keeps ConvexError data", async () => {
    const failed = await engine.call("messages:failWithConvexError", {}, { publicOnly: true });
    expect(failed).toMatchObject({
      success: false,
      errorData: { code: "NOT_ALLOWED", message: "You may not do that" },
    });
  });

  it("keeps the data in its store: another engine on the same store reads it", async () => {
    const schema = (await source.load("schema"))?.default as AnySchema;
    const copy = await createLocalBackend({ schema, modules: source.modules(), store: engine.store });
    const listed = await copy.call("messages:list", { channel: "a" });
    expect(listed).toMatchObject({ success: true, value: [{ body: "hi" }] });
  });
});
