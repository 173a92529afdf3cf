import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router-dom";

/**
 * Renders `ui` as the page at `path` in a data router (what `useBlocker` and links need), starting at
 * `at`; any other path shows "Somewhere else". Returns the router, to read or change its location.
 */
export function renderInRouter(
  ui: ReactNode,
  { path = "/", at = path, routes = [] }: { path?: string; at?: string; routes?: RouteObject[] } = {},
) {
  const router = createMemoryRouter(
    [{ path, element: ui }, ...routes, { path: "*", element: <h1>Somewhere else</h1> }],
    { initialEntries: [at] },
  );
  render(<RouterProvider router={router} />);
  return router;
}
