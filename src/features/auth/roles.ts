import type { Role } from "@convex/lib/constants";

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", seller: "Seller", viewer: "Viewer" };
