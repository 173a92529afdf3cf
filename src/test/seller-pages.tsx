import type { ReactNode } from "react";
import type { RouteObject } from "react-router-dom";
import type { ConvexTestBackend } from "./convex-backend";
import { renderInRouter } from "./render-in-router";

/**
 * A page of the seller's dashboard (the shop and stream editors) in a data router, as `renderInRouter`
 * places it, getting its data through the test's client. Returns the router.
 */
export function renderSellerPage(
  convex: ConvexTestBackend,
  page: ReactNode,
  options: { path: string; at?: string; routes?: RouteObject[] },
) {
  return renderInRouter(<convex.wrapper>{page}</convex.wrapper>, options);
}
