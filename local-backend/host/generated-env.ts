/**
 * Deployment variables a fresh local backend gets made for it, as one would set them on Convex with
 * `npx convex env set` (decision 036): the Web Push VAPID key pair (P-256, base64url: the public key
 * as the 65-byte uncompressed point browsers subscribe with, the private key as its 32-byte scalar)
 * and the secret of e-mail unsubscribe links. Made once, on disk before any function runs, never
 * replaced: a variable already set (by the CLI or an earlier start) is kept.
 */
import { createECDH, randomBytes } from "node:crypto";
import type { SqliteStore } from "../database/store.ts";

function vapidKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const privateKey = Buffer.alloc(32);
  const scalar = ecdh.getPrivateKey();
  scalar.copy(privateKey, 32 - scalar.length);
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: privateKey.toString("base64url"),
  };
}

/** Sets whichever of the generated variables the store lacks; returns the names it set. */
export function ensureGeneratedEnv(
  store: Pick<SqliteStore, "environmentVariables" | "updateEnvironmentVariables">,
): string[] {
  const present = new Set(store.environmentVariables().map(({ name }) => name));
  const changes: { name: string; value: string }[] = [];
  if (!present.has("VAPID_PUBLIC_KEY") && !present.has("VAPID_PRIVATE_KEY")) {
    const pair = vapidKeyPair();
    changes.push(
      { name: "VAPID_PUBLIC_KEY", value: pair.publicKey },
      { name: "VAPID_PRIVATE_KEY", value: pair.privateKey },
    );
  }
  if (!present.has("NOTIFICATIONS_SECRET")) {
    changes.push({ name: "NOTIFICATIONS_SECRET", value: randomBytes(32).toString("base64url") });
  }
  if (changes.length > 0) store.updateEnvironmentVariables(changes);
  return changes.map(({ name }) => name);
}
