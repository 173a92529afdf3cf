/**
 * File storage (`ctx.storage`): a file's bytes in the data folder (in memory without one), its
 * `_storage` document in the database; the file goes once its document's deletion is on disk.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import type { Value } from "convex/values";
import { writeFileDurably } from "../core/files.ts";
import { tableFromId } from "../core/paths.ts";
import type { ComponentPath, Document } from "../storage/document.ts";
import { SYSCALL } from "./convex-abi.ts";
import { readsOf, type Execution, type Syscall } from "./execution.ts";
import { newCallRecord } from "./instrument.ts";
import type { Runner } from "./runner.ts";

export class FileStorage {
  private readonly memoryFiles = new Map<string, Uint8Array>();

  constructor(private readonly runner: Runner) {}

  private get store() {
    return this.runner.store;
  }

  async readSystem(execution: Execution, storageId: string): Promise<Document | null> {
    if (tableFromId(storageId) !== "_storage") return null;
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

  /** Stores a file: on disk (flushed) first, then its `_storage` document in a committed transaction. */
  async storeFile(
    execution: Execution | null,
    bytes: Uint8Array,
    contentType: string | null,
  ): Promise<string> {
    const component = execution?.component ?? "";
    const record = execution?.record ?? newCallRecord(this.runner.owner, "storage upload");
    const id = this.store.newId(component, "_storage");
    const file = this.store.filePath(id);
    if (file) writeFileDurably(file, bytes, 0o600, this.store.writeBytes);
    else this.memoryFiles.set(id, bytes);
    const doc: Document = {
      sha256: createHash("sha256").update(bytes).digest("base64"),
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

  async deleteFile(execution: Execution, storageId: string): Promise<void> {
    await this.runner.inWriteTransaction(execution, (tx) => {
      const stored = this.store.get(storageId);
      if (!stored || stored.table !== "_storage" || stored.component !== execution.component) {
        throw new Error(`Storage ID "${storageId}" not found`);
      }
      this.store.write(stored.component, "_storage", stored.doc, null);
      tx.deletedFiles.push(storageId);
      if (!this.store.filePath(storageId)) this.memoryFiles.delete(storageId);
    });
  }

  /** A stored file's bytes and content type, or null. */
  fileContents(
    storageId: string,
    component: ComponentPath = "",
  ): { bytes: Uint8Array; contentType: string | null } | null {
    if (tableFromId(storageId) !== "_storage") return null;
    const stored = this.store.get(storageId);
    if (!stored || stored.component !== component) return null;
    const file = this.store.filePath(storageId);
    let bytes: Uint8Array | undefined;
    try {
      bytes = file ? readFileSync(file) : this.memoryFiles.get(storageId);
    } catch {
      bytes = undefined;
    }
    if (!bytes) return null;
    const contentType = stored.doc.contentType;
    return { bytes, contentType: typeof contentType === "string" ? contentType : null };
  }

  async readFile(execution: Execution, storageId: string) {
    const doc = await this.readSystem(execution, storageId);
    return doc ? this.fileContents(storageId, execution.component) : null;
  }
}

/** The storage syscalls (`asyncSyscall`). */
export const storageSyscalls: Record<string, Syscall<Value | undefined | Promise<Value | undefined>>> = {
  [SYSCALL.storageGenerateUploadUrl]: (runner) => {
    if (!runner.owner.fileUrls) throw new Error("File uploads are not available here");
    return runner.owner.fileUrls.uploadUrl();
  },
  [SYSCALL.storageGetUrl]: async (runner, execution, args) => {
    const id = args.storageId as string;
    const exists = await runner.files.readSystem(execution, id);
    return exists && runner.owner.fileUrls ? runner.owner.fileUrls.getUrl(id) : null;
  },
  [SYSCALL.storageGetMetadata]: async (runner, execution, args) => {
    const doc = await runner.files.readSystem(execution, args.storageId as string);
    return doc
      ? { storageId: doc._id, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null }
      : null;
  },
  [SYSCALL.storageDelete]: async (runner, execution, args) => {
    await runner.files.deleteFile(execution, args.storageId as string);
    return null;
  },
  [SYSCALL.storageStore]: async (runner, execution, args) => {
    const bytes = Buffer.from(args.blob as string, "base64");
    return await runner.files.storeFile(
      execution,
      new Uint8Array(bytes),
      (args.contentType as string) || null,
    );
  },
  [SYSCALL.storageGet]: async (runner, execution, args) => {
    const file = await runner.files.readFile(execution, args.storageId as string);
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
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return await runner.files.storeFile(execution, bytes, blob.type || null);
  },
  [SYSCALL.getBlob]: async (runner, execution, args) => {
    const file = await runner.files.readFile(execution, args.storageId as string);
    return file
      ? new Blob([new Uint8Array(file.bytes)], file.contentType ? { type: file.contentType } : {})
      : null;
  },
};
