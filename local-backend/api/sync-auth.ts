/**
 * Who a sync connection's caller is (`Authenticate`): a user by their token, or an admin by the admin
 * key (from this machine only), optionally acting as someone.
 */
import { BAD_ADMIN_KEY, actingAs } from "./admin-key.ts";
import { AuthError } from "./auth.ts";
import type { Identity } from "../runtime/execution.ts";
import type { ClientMessage } from "../core/protocol.ts";
import type { BackendServices } from "./services.ts";

/** The identity an `Authenticate` message gives the connection, or the `AuthError` to answer it with. */
export async function authenticate(
  services: BackendServices,
  message: Extract<ClientMessage, { type: "Authenticate" }>,
  fromThisMachine: boolean,
): Promise<{ ok: true; identity: Identity | null } | { ok: false; error: string }> {
  let identity: Identity | null = null;
  if (message.tokenType === "User") {
    try {
      identity = (await services.auth.verify(message.value ?? "")).identity;
    } catch (e) {
      return { ok: false, error: e instanceof AuthError ? e.message : `Authentication failed: ${String(e)}` };
    }
  } else if (message.tokenType === "Admin") {
    let refusal: string | null = null;
    if (!fromThisMachine) refusal = "The admin key is accepted from this machine only.";
    else if (!services.adminKey.matches(message.value ?? "")) refusal = BAD_ADMIN_KEY;
    else if (message.impersonating !== undefined) {
      try {
        identity = actingAs(message.impersonating);
      } catch (e) {
        refusal = `The identity to act as is not valid: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (refusal !== null) return { ok: false, error: refusal };
  }
  return { ok: true, identity };
}
