/**
 * Convex's integration tests the embedded backend is not measured by, each with the reason (issue 39:
 * only tests that need the internet, Convex's test-only syscalls, Convex's deployment bundle paths
 * in stack traces, or Convex's own instance secret). A test is named by its file and its full name (describe blocks and title, as jest
 * reports it).
 */
export type OutOfScope = { file: string; test: string; reason: string };

const TEST_ONLY_SYSCALL =
  "calls Convex.syscall('throwOcc'|'throwOverloaded'): test-only syscalls that make Convex's backend fake an OCC conflict or overload; no app can call them";
const BUNDLE_PATHS =
  "expects frames in Convex's deployment bundle (`convex:/user/<module>.js`), a path that exists only in a Convex deployment's bundled code";

export const OUT_OF_SCOPE: OutOfScope[] = [
  { file: "system_errors.test.ts", test: "HTTPClient call occ error", reason: TEST_ONLY_SYSCALL },
  { file: "system_errors.test.ts", test: "HTTPClient call overloaded error", reason: TEST_ONLY_SYSCALL },
  { file: "system_errors.test.ts", test: "ConvexReactClient call occ error", reason: TEST_ONLY_SYSCALL },
  {
    file: "system_errors.test.ts",
    test: "ConvexReactClient call overloaded error",
    reason: TEST_ONLY_SYSCALL,
  },
  {
    file: "stacktrace_node.test.ts",
    test: "Node.js user space stack traces simple stack trace",
    reason: BUNDLE_PATHS,
  },
  {
    file: "stacktrace_node.test.ts",
    test: "Node.js user space stack traces stack trace used by the npm library proxy-agents",
    reason: `needs the internet (an action's http.get to convex.dev), and ${BUNDLE_PATHS}; its Node-internal frames are those of Node 20.x at one patch level`,
  },
  {
    file: "fileStorage.test.ts",
    test: "File storage with HTTPClient expired upload url",
    reason:
      "posts a token made with the instance secret of Convex's development backend, which no other backend can decode (Convex's test skips itself there: SKIP_INSTANCE_SECRET_TESTS); an expired token of the embedded backend's own is refused with StorageTokenExpired in conformance/file-storage.test.ts",
  },
];

export function outOfScope(file: string, test: string): OutOfScope | undefined {
  return OUT_OF_SCOPE.find((entry) => entry.file === file && entry.test === test);
}
