// An isolate's entry (a worker thread): plain JavaScript, because it must first be able to load
// TypeScript. From the source (`npm run dev`, tests) it loads through Vite's module runner, asking the
// backend thread's Vite to transform each module, so the isolate's own code (isolate.ts) and the app's
// functions load as they do there. From the server's build (`npm start`, decision 093) both are plain
// JavaScript already, imported by Node itself: Vite is not installed there.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

// First of all, the heap guard (decision 090, heap-guard.ts), so that nothing this isolate allocates
// goes unwatched.
const guard = workerData.heapGuard;
if (guard)
  createRequire(import.meta.url)(guard.file).install(workerData.syncFlag, guard.slot, guard.limitBytes);

const pending = new Map();
let nextId = 0;
let onMessage = () => {};

parentPort.on("message", (message) => {
  if (message.type !== "answer") return onMessage(message);
  const resolve = pending.get(message.id);
  pending.delete(message.id);
  resolve?.(message);
});

/** Sends `message` to the backend thread and resolves with its answer. */
function request(message) {
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    parentPort.postMessage({ ...message, id });
  });
}

const importFile = (file) => import(file.startsWith("file:") ? file : pathToFileURL(file).href);

let newRunner;
if (workerData.built) {
  // Built modules never change while the server runs: Node's own module cache is the runner.
  const runner = { import: importFile };
  newRunner = () => runner;
} else {
  const { ESModulesEvaluator, ModuleRunner } = await import("vite/module-runner");
  const transport = { invoke: async (payload) => (await request({ type: "vite", payload })).result };
  newRunner = () =>
    new ModuleRunner({ transport, hmr: false, sourcemapInterceptor: "node" }, new ESModulesEvaluator());
}

const { start } = await newRunner().import(workerData.main);
start({
  request,
  newRunner,
  importFile,
  listen: (listener) => (onMessage = listener),
});
