/**
 * What a document read costs a function run in an isolate (decision 082) against the same function run
 * on the backend's thread, in one run so that both meet the same load: the fixture's `limits:count`
 * (`.collect()` of a table) over DOCS documents, ROUNDS times on each engine, best round kept. Prints
 * µs per document on each and the ratio. Not a test: a figure to compare before and after a change.
 *
 *   node --import tsx scripts/bench/isolate-reads.ts [docs] [rounds]
 */
import path from "node:path";
import { createLocalBackend, type LocalBackendEngine } from "../../local-backend/runtime/engine";
import { createViteFunctionSource } from "../../local-backend/runtime/modules";
import type { AnySchema } from "../../local-backend/runtime/schema";

const DOCS = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 7);
const TABLE = "bench_reads";

const functionsDir = path.join(
  import.meta.dirname,
  "..",
  "..",
  "local-backend",
  "conformance",
  "test-fixture",
  "convex",
);

async function perDocumentUs(engine: LocalBackendEngine): Promise<number> {
  const written = await engine.call("limits:writeMany", { table: TABLE, count: DOCS }, { kind: "mutation" });
  if (!written.success) throw new Error(written.errorMessage);
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const counted = await engine.call("limits:count", { table: TABLE }, { kind: "query" });
    const ms = performance.now() - started;
    if (!counted.success || counted.value !== DOCS) throw new Error(`counted ${JSON.stringify(counted)}`);
    best = Math.min(best, ms);
  }
  return (best * 1000) / DOCS;
}

const source = await createViteFunctionSource({ functionsDir });
try {
  const schema = (await source.load("schema"))?.default as AnySchema;
  // The same module twice: through the isolates, and loaded on this thread (Vite's ssrLoadModule).
  const isolated = await createLocalBackend({ schema, modules: source.modules(), functionsDir: null });
  const onThread = await createLocalBackend({
    schema,
    modules: {
      "/convex/_generated/server.ts": async () => (await source.load("_generated/server"))!,
      "/convex/limits.ts": async () => (await source.load("limits"))!,
    },
    functionsDir: null,
  });
  const here = await perDocumentUs(onThread);
  const there = await perDocumentUs(isolated);
  console.log(`collect() of ${DOCS} documents, best of ${ROUNDS}:`);
  console.log(`  on the backend's thread: ${here.toFixed(1)} µs per document`);
  console.log(`  in an isolate:           ${there.toFixed(1)} µs per document`);
  console.log(`  ratio: ${(there / here).toFixed(2)}×`);
} finally {
  await source.close();
}
