/**
 * Restores a backup (`backup.ts`) into a new data folder: the archive is read into a temporary folder
 * beside the target, every member checked against the manifest (size, SHA-256), the database against
 * SQLite's `integrity_check`, the manifest's row counts and the stored files it names; only then is the
 * folder renamed into place. A damaged, truncated or foreign file leaves nothing behind.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Database from "better-sqlite3";
import { extract as tarExtract } from "tar-stream";
import { fsyncDirectory } from "../core/files.ts";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  MANIFEST_NAME,
  STORAGE_FOLDER,
  type BackupManifest,
  type BackupMember,
} from "./backup.ts";
import { DATABASE_FILE, KEY_FILES } from "./folder.ts";

/** A restore was refused or failed: one sentence for the operator; nothing was created. */
export class RestoreError extends Error {}

export type RestoreResult = { dataDir: string; manifest: BackupManifest; documents: number; files: number };

/** A stored file's name: a storage id (letters, digits, `_`, `-`), nothing that leaves its folder. */
const STORED_FILE = new RegExp(`^${STORAGE_FOLDER}/[A-Za-z0-9_-]{1,128}$`);

function isMemberName(name: string): boolean {
  return name === DATABASE_FILE || KEY_FILES.includes(name) || STORED_FILE.test(name);
}

/** The target must be new: missing (its parent there) or an empty folder. */
function checkTarget(dataDir: string): void {
  if (existsSync(dataDir)) {
    const isFolder = statSync(dataDir).isDirectory();
    if (!isFolder || readdirSync(dataDir).length > 0) {
      throw new RestoreError(
        `${dataDir} already exists and is not an empty folder: a backup is restored into a new data folder. Give another with --data-dir (or move this one away first).`,
      );
    }
    return;
  }
  const parent = path.dirname(dataDir);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) {
    throw new RestoreError(`${parent} is not a folder: create it first, or give another --data-dir.`);
  }
}

/** Reads the archive into `into`, each member hashed as it is written; returns them and the manifest. */
async function extractArchive(
  file: string,
  into: string,
): Promise<{ members: Map<string, BackupMember>; manifest: BackupManifest }> {
  const members = new Map<string, BackupMember>();
  let manifestText: string | null = null;
  const extract = tarExtract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  reading.catch(() => undefined);
  for await (const entry of extract) {
    const { name, type, size } = entry.header;
    if (manifestText !== null) throw new Error(`${name} follows the manifest, which is the last member`);
    if (type !== "file") throw new Error(`${name} is a ${type}, not a file`);
    if (name === MANIFEST_NAME) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      manifestText = Buffer.concat(chunks).toString("utf8");
      continue;
    }
    if (!isMemberName(name)) throw new Error(`it holds ${name}, which no backup holds`);
    if (members.has(name)) throw new Error(`it holds ${name} twice`);
    const hash = createHash("sha256");
    let written = 0;
    const output: FileHandle = await open(path.join(into, name), "wx", 0o600);
    try {
      for await (const chunk of entry) {
        const bytes = chunk as Buffer;
        hash.update(bytes);
        written += bytes.length;
        let offset = 0;
        while (offset < bytes.length) offset += (await output.write(bytes, offset)).bytesWritten;
      }
      await output.sync();
    } finally {
      await output.close();
    }
    if (written !== size) throw new Error(`${name} ends early`);
    members.set(name, { name, size: written, sha256: hash.digest("hex") });
  }
  await reading;
  if (manifestText === null) throw new Error(`it has no ${MANIFEST_NAME} (a backup's last member)`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw new Error(`its ${MANIFEST_NAME} is not JSON`);
  }
  return { members, manifest };
}

/** What went wrong reading the archive, in words (zlib's and tar's errors say it in theirs). */
function describeReadFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const message = (e as Error).message;
  if (code === "Z_BUF_ERROR" || /unexpected end/i.test(message)) return "it ends early (a truncated copy?)";
  if (code === "Z_DATA_ERROR" && /header/i.test(message)) return "it is not a gzip file";
  if (code === "Z_DATA_ERROR") return `its compressed data is damaged (${message})`;
  if (/^Invalid tar header|^Unexpected end of data/i.test(message))
    return `its archive is damaged (${message})`;
  return message;
}

/** Every member as the manifest lists it, and nothing else. */
function checkMembers(members: Map<string, BackupMember>, manifest: BackupManifest): void {
  if (manifest.format !== BACKUP_FORMAT) {
    throw new Error(`it is not a LiveLocal backup (format ${String(manifest.format)})`);
  }
  if (manifest.version !== BACKUP_VERSION) {
    throw new Error(
      `its format version is ${manifest.version}; this version of LiveLocal reads ${BACKUP_VERSION}`,
    );
  }
  const listed = new Set<string>();
  for (const expected of manifest.members) {
    listed.add(expected.name);
    const found = members.get(expected.name);
    if (!found) throw new Error(`${expected.name} is missing`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256) {
      throw new Error(`${expected.name} differs from its checksum in the manifest`);
    }
  }
  for (const name of members.keys()) {
    if (!listed.has(name)) throw new Error(`${name} is not in the manifest`);
  }
  if (!members.has(DATABASE_FILE)) throw new Error(`it holds no ${DATABASE_FILE}`);
}

/** SQLite's `integrity_check`, the rows the manifest counted, and a file for every `_storage` document. */
function checkDatabase(into: string, members: Map<string, BackupMember>, manifest: BackupManifest): number {
  let db: Database.Database;
  try {
    db = new Database(path.join(into, DATABASE_FILE), { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new Error(`its ${DATABASE_FILE} cannot be opened (${(e as Error).message})`, { cause: e });
  }
  try {
    let problems: { integrity_check: string }[];
    try {
      problems = db.pragma("integrity_check(5)", { simple: false }) as { integrity_check: string }[];
    } catch (e) {
      problems = [{ integrity_check: (e as Error).message }];
    }
    if (problems.length !== 1 || problems[0]?.integrity_check !== "ok") {
      throw new Error(
        `its database is damaged (SQLite's integrity_check: ${problems.map((p) => p.integrity_check).join("; ")})`,
      );
    }
    for (const [table, expected] of Object.entries(manifest.rows)) {
      const rows = db
        .prepare(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number;
      if (rows !== expected)
        throw new Error(`its table ${table} holds ${rows} rows, the manifest says ${expected}`);
    }
    const missing = new Set(manifest.missingFiles);
    const ids = db
      .prepare("SELECT id FROM documents WHERE table_name = '_storage'")
      .pluck()
      .all() as string[];
    for (const id of ids) {
      if (!members.has(`${STORAGE_FOLDER}/${id}`) && !missing.has(id))
        throw new Error(`the stored file ${id} is missing`);
    }
    return Object.values(manifest.documents).reduce((sum, count) => sum + count, 0);
  } finally {
    db.close();
  }
}

/**
 * Restores the backup `file` into the new data folder `dataDir` (missing, or an empty folder), which
 * a backend then starts on as it was when the backup's snapshot was taken.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const target = path.resolve(dataDir);
  if (!existsSync(file) || !statSync(file).isFile()) throw new RestoreError(`${file} is not a file.`);
  checkTarget(target);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.restore.${process.pid}.tmp`);
  try {
    mkdirSync(path.join(temp, STORAGE_FOLDER), { recursive: true, mode: 0o700 });
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    throw new RestoreError(
      `${path.dirname(target)} is not writable by this user (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give another --data-dir.`,
      { cause: e },
    );
  }
  try {
    let extracted: Awaited<ReturnType<typeof extractArchive>>;
    try {
      extracted = await extractArchive(file, temp);
      checkMembers(extracted.members, extracted.manifest);
    } catch (e) {
      throw new RestoreError(
        `${file} is not a complete, undamaged backup: ${describeReadFailure(e)}. Nothing was restored.`,
        {
          cause: e,
        },
      );
    }
    const { members, manifest } = extracted;
    let documents: number;
    try {
      documents = checkDatabase(temp, members, manifest);
    } catch (e) {
      throw new RestoreError(`${file} cannot be restored: ${(e as Error).message}. Nothing was restored.`, {
        cause: e,
      });
    }
    fsyncDirectory(path.join(temp, STORAGE_FOLDER));
    fsyncDirectory(temp);
    // rename() replaces an empty folder; the target was checked to be one, or missing.
    renameSync(temp, target);
    fsyncDirectory(path.dirname(target));
    return {
      dataDir: target,
      manifest,
      documents,
      files: [...members.keys()].filter((name) => STORED_FILE.test(name)).length,
    };
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(
      `The restore into ${target} failed (${(e as Error).message}); nothing was restored.`,
      {
        cause: e,
      },
    );
  }
}
