/**
 * For shared-start.test.ts, in a process of its own: builds the components of the config file named by
 * its argument for other processes (`shareComponents`), prints them as one JSON line and keeps the
 * bundles until its stdin closes, as a test run's main process does for its workers.
 */
import { shareComponents } from "../runtime/components.ts";

const configFile = process.argv[2];
if (!configFile) throw new Error("Name the convex.config.ts to build.");
process.stdout.write(`${JSON.stringify(await shareComponents(configFile, process.cwd()))}\n`);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
