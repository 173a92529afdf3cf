/**
 * The embedded backend's admin key, as a self-hosted Convex deployment has one: with it the Convex CLI
 * (`CONVEX_SELF_HOSTED_URL` + `CONVEX_SELF_HOSTED_ADMIN_KEY`) and `ConvexHttpClient.setAdminAuth` run any
 * function, internal ones included, optionally acting as a given identity. It is kept in the data folder
 * (mode 0600; a new one per process without a folder), printed by `npm run backend`, and accepted from
 * this machine only.
 */
import { timingSafeEqual } from "node:crypto";
import type { Identity } from "../runtime/execution.ts";
import { readOrCreateSecret } from "../core/files.ts";

const PREFIX = "livelocal-local|";
/** How Convex refuses a key that is not the deployment's (code `BadAdminKey`). */
export const BAD_ADMIN_KEY = "The provided admin key was invalid for this instance";

export class AdminKey {
  private constructor(readonly value: string) {}

  static load(dataDir: string | null): AdminKey {
    const secret = readOrCreateSecret(
      dataDir,
      "admin-key",
      "the Convex CLI then needs the new admin key, which `npm run backend` prints",
    );
    return new AdminKey(`${PREFIX}${secret.toString("hex")}`);
  }

  matches(candidate: string): boolean {
    const given = Buffer.from(candidate);
    const expected = Buffer.from(this.value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * `Authorization: Convex <key>[:<base64 JSON identity>]` (what `ConvexHttpClient.setAdminAuth` sends):
   * the identity to act as (null for none), or an Error saying why the key is refused.
   */
  parse(value: string): { identity: Identity | null } | Error {
    const colon = value.indexOf(":");
    const key = colon === -1 ? value : value.slice(0, colon);
    if (!this.matches(key)) return new Error(BAD_ADMIN_KEY);
    if (colon === -1) return { identity: null };
    try {
      const json = new TextDecoder().decode(Buffer.from(value.slice(colon + 1), "base64"));
      return { identity: actingAs(JSON.parse(json) as unknown) };
    } catch (e) {
      return new Error(`The identity to act as is not valid: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** An identity to act as (`impersonating`, or the admin header's suffix), completed as Convex does. */
export function actingAs(attributes: unknown): Identity {
  if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) {
    throw new Error("expected an object of identity attributes");
  }
  const fields = attributes as Record<string, unknown>;
  const subject = typeof fields.subject === "string" ? fields.subject : "";
  const issuer = typeof fields.issuer === "string" ? fields.issuer : "";
  if (subject === "" || issuer === "") throw new Error("`subject` and `issuer` are required");
  return { ...fields, subject, issuer, tokenIdentifier: `${issuer}|${subject}` };
}
