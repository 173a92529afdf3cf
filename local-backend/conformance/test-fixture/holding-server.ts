/**
 * `npm run backend` (same arguments) with two holds, for tests that kill it at a chosen moment
 * (`resent-mutations.test.ts`):
 *
 * - a `messages:send` whose body is "held" commits (on disk), prints `HELD <channel> <its result as
 *   JSON>` and is never answered: a kill then falls between the commit and the answer;
 * - a line "lock" on stdin takes the transaction lock for good and prints `LOCKED`: an upload's file
 *   is then on disk while its `_storage` document waits to commit.
 */
import { parseServerArgs } from "../../host/server.ts";
import { startLocalBackend } from "../../host/start.ts";

const { resetOnly: _, ...options } = parseServerArgs(process.argv.slice(2));
const backend = await startLocalBackend(options);
const core = backend.core;
const call = core.call.bind(core);
core.call = async (udfPath, args, callOptions) => {
  const outcome = await call(udfPath, args, callOptions);
  const { channel, body } = args as { channel?: string; body?: string };
  if (udfPath === "messages:send" && body === "held" && outcome.success) {
    console.log(`HELD ${channel} ${JSON.stringify(outcome.value)}`);
    await new Promise<never>(() => undefined);
  }
  return outcome;
};
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text: string) => {
  if (!text.includes("lock")) return;
  void core
    .engine()
    .runner.exclusive(() => {
      // Not `console`: inside a transaction it is the call's log, not the terminal.
      process.stdout.write("LOCKED\n");
      return new Promise<never>(() => undefined);
    })
    .catch(() => undefined);
});
console.log(`Convex URL (VITE_CONVEX_URL): ${backend.url}`);
