/**
 * `npm run backup:restore FILE -- --data-dir NEW` (restore.mjs: this file as the build has it): restores a backup that `npm start -- --backup-dir`
 * wrote into a new data folder (missing, or empty), which `npm start -- --data-dir NEW` then serves as
 * it was when the backup was taken. The file is checked whole first (checksums, SQLite's
 * integrity_check); a damaged or truncated one, or a folder that is in use, is refused in words and
 * nothing is created (local-backend/storage/restore.ts, decision 096).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { restoreBackup } from "../../local-backend/storage/restore.ts";

const USAGE = "Usage: npm run backup:restore FILE -- --data-dir NEW_FOLDER";

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "data-dir": { type: "string" } },
  });
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0 || !values["data-dir"]) throw new Error(USAGE);
  const dataDir = path.resolve(values["data-dir"]);
  const started = performance.now();
  const restored = await restoreBackup(path.resolve(file), dataDir);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Restored ${file} (taken ${restored.manifest.snapshotAt}: ${restored.documents} documents, ${restored.files} stored files) into ${dataDir} in ${seconds} s.`,
  );
  console.log(`Start it with: npm start -- --data-dir ${dataDir}`);
}

/** The restore as the command line asks for it (restore.mjs from the build, or this file with tsx). */
export async function restoreFromCommandLine(): Promise<void> {
  await main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await restoreFromCommandLine();
}
