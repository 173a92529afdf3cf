import type { ReactNode } from "react";
import { Outlet } from "react-router-dom";
import { ForbiddenPage } from "@/components/errors/forbidden-page";
import { PageLoading } from "@/components/layout/page-loading";
import { useCurrentUser } from "./current-user";

/**
 * Guards admin routes, inside RequireAuth (which handles signed-out visitors). Waits for the user row,
 * so the page never renders before the role is known, and follows it live, so losing the role while
 * the page is open closes it. The backend enforces the same rule on every call (docs/product.md#roles).
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { isLoading, user } = useCurrentUser();
  if (isLoading) return <PageLoading label="Checking your access…" />;
  if (user?.role !== "admin") return <ForbiddenPage message="This page is for LiveLocal admins." />;
  return children ?? <Outlet />;
}
