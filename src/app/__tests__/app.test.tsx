import { render, screen } from "@testing-library/react";
import { createMemoryRouter } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

// The environment is read once at start-up, so each case loads the app afresh.
async function loadApp() {
  vi.resetModules();
  return await import("../app");
}

test("with a deployment URL but no Clerk key, the app explains the missing variable instead of a blank page", async () => {
  vi.stubEnv("VITE_CONVEX_URL", "https://happy-otter-123.convex.cloud");
  vi.stubEnv("VITE_CLERK_PUBLISHABLE_KEY", "");
  const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  const { App } = await loadApp();
  render(<App router={createMemoryRouter([{ path: "/", element: null }])} />);
  expect(screen.getByRole("heading", { name: "LiveLocal is not configured correctly" })).toBeInTheDocument();
  expect(screen.getByRole("alert")).toHaveTextContent("VITE_CLERK_PUBLISHABLE_KEY is missing");
  expect(consoleError).toHaveBeenCalled();
});

test("without VITE_CONVEX_URL the app runs in local mode", async () => {
  vi.stubEnv("VITE_CONVEX_URL", "");
  vi.stubEnv("VITE_CLERK_PUBLISHABLE_KEY", "");
  vi.resetModules();
  const { mode, envResult } = await import("@/config/env");
  expect(mode).toBe("local");
  expect(envResult).toEqual({
    ok: true,
    config: { mode: "local", backend: "embedded", convexUrl: window.location.origin },
  });
});
