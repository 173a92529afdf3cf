import { createECDH } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ensureGeneratedEnv } from "./generated-env.ts";
import { SqliteStore } from "../database/store.ts";

describe("variables a fresh local backend makes for itself", () => {
  it("makes a VAPID key pair browsers and web-push accept, and an unsubscribe secret, once", () => {
    const store = SqliteStore.open(null);
    try {
      expect(ensureGeneratedEnv(store)).toEqual([
        "VAPID_PUBLIC_KEY",
        "VAPID_PRIVATE_KEY",
        "NOTIFICATIONS_SECRET",
      ]);
      const env = Object.fromEntries(store.environmentVariables().map(({ name, value }) => [name, value]));
      const publicKey = Buffer.from(env.VAPID_PUBLIC_KEY, "base64url");
      const privateKey = Buffer.from(env.VAPID_PRIVATE_KEY, "base64url");
      expect(publicKey).toHaveLength(65);
      expect(publicKey[0]).toBe(4);
      expect(privateKey).toHaveLength(32);
      // The pair belongs together: the private scalar gives the same public point.
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(privateKey);
      expect(ecdh.getPublicKey().equals(publicKey)).toBe(true);
      expect(Buffer.from(env.NOTIFICATIONS_SECRET, "base64url")).toHaveLength(32);

      expect(ensureGeneratedEnv(store)).toEqual([]);
      const again = Object.fromEntries(store.environmentVariables().map(({ name, value }) => [name, value]));
      expect(again).toEqual(env);
    } finally {
      store.close();
    }
  });

  it("keeps variables already set (a deployment's own keys)", () => {
    const store = SqliteStore.open(null);
    try {
      store.updateEnvironmentVariables([{ name: "NOTIFICATIONS_SECRET", value: "mine" }]);
      expect(ensureGeneratedEnv(store)).toEqual(["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"]);
      expect(store.environmentVariables().find(({ name }) => name === "NOTIFICATIONS_SECRET")?.value).toBe(
        "mine",
      );
    } finally {
      store.close();
    }
  });
});
