/**
 * jsdom's environment replaces the global `Uint8Array` and `ArrayBuffer` with jsdom's own, so bytes
 * made by Node (`Buffer`, `TextEncoder`, SQLite, esbuild's pipe) fail `instanceof Uint8Array`. The
 * embedded backend that page tests run in-process (convex-backend.tsx) is Node code: it gets Node's
 * constructors back, as Vitest's node environment gives them. Imported before the backend.
 */
const NodeUint8Array = (Object.getPrototypeOf(Buffer.prototype) as { constructor: Uint8ArrayConstructor })
  .constructor;
globalThis.Uint8Array = NodeUint8Array;
globalThis.ArrayBuffer = new NodeUint8Array(0).buffer.constructor as ArrayBufferConstructor;
