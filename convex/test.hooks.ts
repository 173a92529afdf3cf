/**
 * Setup file of the convex test project (vitest.config.ts): an error in a scheduled function fails the
 * test that scheduled it. convex-test (0.0.60, `runScheduledFunction` in its dist/index.js) catches what
 * a scheduled function throws, marks the job failed and only prints `Error when running scheduled
 * function <name>` with the error, so a mutation whose scheduled notice breaks would still pass.
 * `scheduledErrors.test.ts` fails if that report changes shape.
 */
import { afterAll, afterEach } from "vitest";

const REPORT = "Error when running scheduled function ";

export type ScheduledFunctionError = { name: string; error: unknown };

const caught: ScheduledFunctionError[] = [];

/** Backends created in the current test (`newTest`): their due jobs run before the test is judged. */
const backends = new Set<{ finishAllScheduledFunctions(advanceTimers: () => void): Promise<void> }>();

const printError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].startsWith(REPORT)) {
    caught.push({ name: args[0].slice(REPORT.length), error: args[1] });
    return;
  }
  printError(...args);
};

export function trackBackend(t: Parameters<typeof backends.add>[0]): void {
  backends.add(t);
}

/**
 * The scheduled functions' errors caught since the last call, for a test whose point is that one
 * fails (`expect(takeScheduledFunctionErrors()).toEqual([...])`); taken, they no longer fail it.
 */
export function takeScheduledFunctionErrors(): ScheduledFunctionError[] {
  return caught.splice(0);
}

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Throws if a scheduled function failed and no test took its error. */
export function assertNoScheduledFunctionErrors(): void {
  const errors = takeScheduledFunctionErrors();
  if (errors.length === 0) return;
  throw new Error(
    `${errors.length} scheduled function(s) failed:\n` +
      errors.map(({ name, error }) => `  ${name}: ${message(error)}`).join("\n"),
    { cause: errors[0].error },
  );
}

afterEach(async () => {
  // Jobs already due run now (real timers: they were about to; fake ones advance nothing), so an
  // error is blamed on the test that scheduled it rather than on whichever test runs next.
  const settling = [...backends];
  backends.clear();
  for (const t of settling) await t.finishAllScheduledFunctions(() => undefined);
  assertNoScheduledFunctionErrors();
});

// A job that fails after the file's last test.
afterAll(() => assertNoScheduledFunctionErrors());
