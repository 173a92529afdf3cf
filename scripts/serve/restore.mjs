// `npm run backup:restore FILE -- --data-dir NEW`: the restore as `npm run build` built it (decisions 093,
// 096), so that a machine with the production dependencies only can restore.
import { runBuilt } from "./built.mjs";

await runBuilt("backup-restore", "restoreFromCommandLine");
