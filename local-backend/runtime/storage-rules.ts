/**
 * Convex's rules for what file storage is given, with its error texts: storage ids (a `_storage` id,
 * or a UUID, the "old" form Convex still accepts) and `sha-256=` digests (an upload's `Digest` header,
 * `ctx.storage.store(blob, { sha256 })`). Used by the storage syscalls and the upload endpoint alike.
 */
import { createHash } from "node:crypto";
import { decodeConvexId } from "../values/convex-ids.ts";

/** A storage error whose `code` the HTTP answer carries (Convex's `ErrorMetadata` short message). */
export class FileStorageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A local document id: its counter's digits, then its table's name. */
const LOCAL_ID = /^[0-9]+([A-Za-z_][A-Za-z0-9_]*)$/;
/** The forms Rust's `uuid` parses: hyphenated, simple, braced, URN. */
const UUID =
  /^(?:urn:uuid:)?(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[0-9a-f]{32})$/i;

/**
 * The `_storage` id a storage syscall was given, or null for one that can name no file here (a UUID,
 * or another deployment's id: Convex looks such ids up and finds nothing). Throws Convex's errors for
 * text that is no id (`syscall` names the call, as Convex's `with_argument_error` does) and for an id
 * of another table.
 */
export function parseStorageId(storageId: unknown, syscall: string): string | null {
  const text = typeof storageId === "string" ? storageId : String(storageId);
  if (UUID.test(text) || decodeConvexId(text) !== null) return null;
  const local = LOCAL_ID.exec(text);
  if (local) {
    if (local[1] !== "_storage") {
      throw new FileStorageError(
        "InvalidArgument",
        "Invalid storage ID. Storage ID cannot be an ID on any table other than '_storage'.",
      );
    }
    return text;
  }
  // Convex's text, line break and indentation included (a Rust string literal spanning two lines).
  throw new FileStorageError(
    "InvalidArgument",
    `Invalid argument \`storageId\` for \`${syscall}\`: Invalid storage ID: "${text}". Storage ID should be an
                    Id of '_storage' table, or a UUID string.`,
  );
}

/** Convex's answer to deleting a file that is not there. */
export function storageIdNotFound(storageId: string): FileStorageError {
  return new FileStorageError("StorageIdNotFound", `storage id ${storageId} not found`);
}

/** The 32 bytes of a `sha-256=<base64>` digest (Convex's `DigestHeader`), or null when it is not one. */
export function digestFromHeader(header: string): Buffer | null {
  if (!header.startsWith("sha-256=")) return null;
  const text = header.slice("sha-256=".length);
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(text)) return null;
  return Buffer.from(text, "base64");
}

/** The bytes' SHA-256, checked against the digest the caller sent (Convex: 400 `Sha256Mismatch`). */
export function sha256Checked(bytes: Uint8Array, expected: Buffer | null): Buffer {
  const actual = createHash("sha256").update(bytes).digest();
  if (expected && !expected.equals(actual)) {
    throw new FileStorageError(
      "Sha256Mismatch",
      `Sha256 mismatch. Expected: ${expected.toString("base64")} Actual: ${actual.toString("base64")}`,
    );
  }
  return actual;
}

/** `getMetadata` gives the digest in hex (the `_storage` document keeps it in base64, as Convex's does). */
export function sha256Hex(base64: string): string {
  return Buffer.from(base64, "base64").toString("hex");
}
