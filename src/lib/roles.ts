import { ROLES, type Role } from "@convex/lib/constants";

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", seller: "Seller", viewer: "Viewer" };

/** `value` as a role, for strings from forms and URLs; undefined for anything else. */
export function parseRole(value: string | null | undefined): Role | undefined {
  return ROLES.find((role) => role === value);
}
