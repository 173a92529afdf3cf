import { render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { withLazyRouteErrors } from "@/app/lazy-route-errors";
import { CHUNK_RELOAD_STORAGE_KEY } from "@/lib/chunk-reload";
import { RouteErrorBoundary } from "../route-error-boundary";

let reload: ReturnType<typeof vi.fn>;
beforeEach(() => {
  sessionStorage.clear();
  reload = vi.fn();
  vi.stubGlobal("location", { ...window.location, reload });
});
afterEach(() => vi.unstubAllGlobals());

function routerWithFailingChunk(message: string) {
  return createMemoryRouter(
    withLazyRouteErrors([
      {
        element: <Outlet />,
        errorElement: <RouteErrorBoundary />,
        children: [
          { path: "/", element: <p>Home</p> },
          {
            path: "/explore/streams",
            lazy: () => Promise.reject(new TypeError(message)),
            errorElement: <RouteErrorBoundary />,
          },
        ],
      },
    ]),
  );
}

test("a lazy route whose chunk fails to load reloads the page once, at the new URL", async () => {
  const router = routerWithFailingChunk("Failed to fetch dynamically imported module: /assets/x.js");
  render(<RouterProvider router={router} />);
  await router.navigate("/explore/streams");
  expect(await screen.findByText("Loading the latest version…")).toBeInTheDocument();
  expect(router.state.location.pathname).toBe("/explore/streams");
  await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  expect(sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY)).not.toBeNull();
});

test("within 10 seconds of that reload, the error page shows instead of reloading again", async () => {
  sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(Date.now()));
  const router = routerWithFailingChunk("Failed to fetch dynamically imported module: /assets/x.js");
  render(<RouterProvider router={router} />);
  await router.navigate("/explore/streams");
  expect(await screen.findByText("Internal Server Error")).toBeInTheDocument();
  expect(reload).not.toHaveBeenCalled();
});

test("other errors go straight to the error page", async () => {
  const router = routerWithFailingChunk("Cannot read properties of undefined");
  render(<RouterProvider router={router} />);
  await router.navigate("/explore/streams");
  expect(await screen.findByText("Internal Server Error")).toBeInTheDocument();
  expect(reload).not.toHaveBeenCalled();
});
