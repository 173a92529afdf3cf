/**
 * File storage (`ctx.storage`): a file's bytes in the data folder (in memory without one), its
 * `_storage` document in the database; the file goes once its document's deletion is on disk.
 */
import { readFileSync, rmSync } from "node:fs";
import type { Value } from "convex/values";
import { writeFileDurably } from "../core/files.ts";
import type { ComponentPath, Document } from "../storage/document.ts";
import { SYSCALL } from "./convex-abi.ts";
import { readsOf, type Execution, type Syscall } from "./execution.ts";
import { newCallRecord } from "./instrument.ts";
import type { Runner } from "./runner.ts";
import {
  digestFromHeader,
  FileStorageError,
  parseStorageId,
  sha256Checked,
  sha256Hex,
  storageIdNotFound,
} from "./storage-rules.ts";

/** Where a file is stored without a running function (an upload URL's POST), and its expected digest. */
export type StoreOptions = { component?: ComponentPath; sha256?: Buffer | null };

/** A stored file: its bytes, content type and SHA-256 (base64, as its `_storage` document keeps it). */
export type StoredFile = { bytes: Uint8Array; contentType: string | null; sha256: string };

export class FileStorage {
  private readonly memoryFiles = new Map<string, Uint8Array>();

  constructor(private readonly runner: Runner) {}

  private get store() {
    return this.runner.store;
  }

  /** The `_storage` document of an id `parseStorageId` gave (null: a UUID, which names no file here). */
  async readSystem(execution: Execution, storageId: string | null): Promise<Document | null> {
    if (storageId === null) return null;
    readsOf(execution)?.addId("_storage", storageId);
    const read = () => {
      const stored = this.store.get(storageId);
      return stored && stored.component === execution.component ? stored.doc : null;
    };
    if (execution.tx) return read();
    return await this.runner.transaction(execution.component, execution.record, false, () =>
      Promise.resolve(read()),
    );
  }

  /**
   * Stores a file: on disk (flushed) first, then its `_storage` document in a committed transaction,
   * in the running function's component (or `options.component`). Nothing is stored when the bytes do
   * not match `options.sha256`.
   */
  async storeFile(
    execution: Execution | null,
    bytes: Uint8Array,
    contentType: string | null,
    options: StoreOptions = {},
  ): Promise<string> {
    const sha256 = sha256Checked(bytes, options.sha256 ?? null);
    const component = execution?.component ?? options.component ?? "";
    const record = execution?.record ?? newCallRecord(this.runner.owner, "storage upload");
    const id = this.store.newId(component, "_storage");
    const file = this.store.filePath(id);
    if (file) writeFileDurably(file, bytes, 0o600, this.store.writeBytes);
    else this.memoryFiles.set(id, bytes);
    const doc: Document = {
      sha256: sha256.toString("base64"),
      size: bytes.length,
      ...(contentType ? { contentType } : {}),
      _id: id,
      _creationTime: this.store.newCreationTime(component),
    };
    const insert = () => {
      this.store.write(component, "_storage", null, doc);
      return id;
    };
    if (execution?.tx) {
      if (execution.readOnly) throw new Error("Storing files is not allowed in a query");
      return insert();
    }
    try {
      return await this.runner.transaction(component, record, true, () => Promise.resolve(insert()));
    } catch (e) {
      // No file stays without its document (a full disk may refuse the commit after the file); one
      // whose document did reach the WAL (its flush failed) stays with it.
      if (!this.documentCommitted(id)) {
        if (file) rmSync(file, { force: true });
        else this.memoryFiles.delete(id);
      }
      throw e;
    }
  }

  private documentCommitted(id: string): boolean {
    try {
      return this.store.getJson(id) !== null;
    } catch {
      return true;
    }
  }

  async deleteFile(execution: Execution, given: unknown): Promise<void> {
    const storageId = parseStorageId(given, "storage.delete");
    await this.runner.inWriteTransaction(execution, (tx) => {
      const stored = storageId === null ? null : this.store.get(storageId);
      if (
        storageId === null ||
        !stored ||
        stored.table !== "_storage" ||
        stored.component !== execution.component
      ) {
        throw storageIdNotFound(storageId ?? (given as string));
      }
      this.store.write(stored.component, "_storage", stored.doc, null);
      tx.deletedFiles.push(storageId);
      if (!this.store.filePath(storageId)) this.memoryFiles.delete(storageId);
    });
  }

  /** A stored file of `component`, or null. */
  fileContents(storageId: string, component: ComponentPath = ""): StoredFile | null {
    const stored = this.store.get(storageId);
    if (!stored || stored.table !== "_storage" || stored.component !== component) return null;
    const file = this.store.filePath(storageId);
    let bytes: Uint8Array | undefined;
    try {
      bytes = file ? readFileSync(file) : this.memoryFiles.get(storageId);
    } catch {
      bytes = undefined;
    }
    if (!bytes) return null;
    const { contentType, sha256 } = stored.doc;
    return {
      bytes,
      contentType: typeof contentType === "string" ? contentType : null,
      sha256: sha256 as string,
    };
  }

  /** A file's bytes for `ctx.storage.get` (`syscall` names the call in an invalid id's error). */
  async readFile(execution: Execution, given: unknown, syscall: string) {
    const storageId = parseStorageId(given, syscall);
    const doc = await this.readSystem(execution, storageId);
    return doc && storageId !== null ? this.fileContents(storageId, execution.component) : null;
  }
}

/** The digest `ctx.storage.store(blob, { sha256 })` was given (Convex makes it a `Digest` header). */
function expectedDigest(sha256: unknown): Buffer | null {
  if (sha256 === undefined || sha256 === null) return null;
  const digest = typeof sha256 === "string" ? digestFromHeader(`sha-256=${sha256}`) : null;
  if (!digest) throw new FileStorageError("InvalidDigestHeader", "invalid HTTP header");
  return digest;
}

/** The storage syscalls (`asyncSyscall`). */
export const storageSyscalls: Record<string, Syscall<Value | undefined | Promise<Value | undefined>>> = {
  [SYSCALL.storageGenerateUploadUrl]: (runner, execution) => {
    if (!runner.owner.fileUrls) throw new Error("File uploads are not available here");
    return runner.owner.fileUrls.uploadUrl(execution.component);
  },
  [SYSCALL.storageGetUrl]: async (runner, execution, args) => {
    const id = parseStorageId(args.storageId, "storage.getUrl");
    const exists = await runner.files.readSystem(execution, id);
    return exists && id !== null && runner.owner.fileUrls
      ? runner.owner.fileUrls.getUrl(id, execution.component)
      : null;
  },
  [SYSCALL.storageGetMetadata]: async (runner, execution, args) => {
    const id = parseStorageId(args.storageId, "storage.getMetadata");
    const doc = await runner.files.readSystem(execution, id);
    return doc
      ? {
          storageId: doc._id,
          sha256: sha256Hex(doc.sha256 as string),
          size: doc.size,
          contentType: doc.contentType ?? null,
        }
      : null;
  },
  [SYSCALL.storageDelete]: async (runner, execution, args) => {
    await runner.files.deleteFile(execution, args.storageId);
    return null;
  },
  [SYSCALL.storageStore]: async (runner, execution, args) => {
    const bytes = Buffer.from(args.blob as string, "base64");
    return await runner.files.storeFile(
      execution,
      new Uint8Array(bytes),
      (args.contentType as string) || null,
      {
        sha256: expectedDigest(args.sha256),
      },
    );
  },
  [SYSCALL.storageGet]: async (runner, execution, args) => {
    const file = await runner.files.readFile(execution, args.storageId, "storage.get");
    return file ? { blob: Buffer.from(file.bytes).toString("base64"), contentType: file.contentType } : null;
  },
};

/** The storage syscalls `convex/server` makes with JavaScript values (`jsSyscall`). */
export const storageJsSyscalls: Record<
  string,
  (runner: Runner, execution: Execution, args: Record<string, unknown>) => Promise<unknown>
> = {
  [SYSCALL.storeBlob]: async (runner, execution, args) => {
    const blob = args.blob as Blob;
    const options = args.options as { sha256?: unknown } | undefined;
    const sha256 = expectedDigest(options?.sha256);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return await runner.files.storeFile(execution, bytes, blob.type || null, { sha256 });
  },
  [SYSCALL.getBlob]: async (runner, execution, args) => {
    // Convex names this call `storage.getMetadata` in an invalid id's error (its action runtime does).
    const file = await runner.files.readFile(execution, args.storageId, "storage.getMetadata");
    return file
      ? new Blob([new Uint8Array(file.bytes)], file.contentType ? { type: file.contentType } : {})
      : null;
  },
};
