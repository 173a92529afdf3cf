import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import { MetroPicker } from "../metro-picker";

afterEach(() => vi.unstubAllGlobals());

function renderPicker() {
  const router = createMemoryRouter([
    { path: "/", element: <MetroPicker /> },
    { path: "/explore/streams", element: <p>Explore</p> },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

test("typing offers matching metro areas and choosing one opens explore filtered by it", async () => {
  const user = userEvent.setup();
  const router = renderPicker();
  const input = screen.getByRole("combobox", { name: "Metro area" });
  await user.type(input, "austin");
  expect(input).toHaveAttribute("aria-expanded", "true");
  expect(screen.getByRole("option", { name: "Austin-Round Rock-San Marcos, TX" })).toBeInTheDocument();
  await user.keyboard("{Enter}");
  expect(router.state.location.pathname).toBe("/explore/streams");
  expect(router.state.location.search).toBe("?msa=12420");
});

test("Near me picks the nearest metro area from the browser's position", async () => {
  const user = userEvent.setup();
  vi.stubGlobal("navigator", {
    ...navigator,
    geolocation: {
      getCurrentPosition: (ok: PositionCallback) =>
        ok({ coords: { latitude: 30.2672, longitude: -97.7431 } } as GeolocationPosition),
    },
  });
  const router = renderPicker();
  await user.click(screen.getByRole("button", { name: "Near me" }));
  expect(router.state.location.search).toBe("?msa=12420");
});

test("a refused location is explained and the page stays", async () => {
  const user = userEvent.setup();
  vi.stubGlobal("navigator", {
    ...navigator,
    geolocation: {
      getCurrentPosition: (_: PositionCallback, fail: PositionErrorCallback) =>
        fail({ code: 1, message: "denied" } as GeolocationPositionError),
    },
  });
  const router = renderPicker();
  await user.click(screen.getByRole("button", { name: "Near me" }));
  expect(screen.getByRole("status")).toHaveTextContent("Location permission was refused.");
  expect(router.state.location.pathname).toBe("/");
});
