import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import { NewBuildNotice } from "../new-build-notice";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stubLatest(id: string) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ id, builtAt: "x" }))));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function stubReload() {
  const reload = vi.fn();
  vi.stubGlobal("location", { ...window.location, reload });
  return reload;
}

const newRouter = () =>
  createMemoryRouter([
    { path: "/", element: null },
    { path: "/explore/streams", element: null },
  ]);

test("when the tab comes back and a new build is out, it offers a reload", async () => {
  stubLatest("build-2");
  const reload = stubReload();
  render(<NewBuildNotice router={newRouter()} currentId="build-1" />);
  expect(screen.queryByRole("status")).not.toBeInTheDocument();
  await act(() => {
    window.dispatchEvent(new Event("focus"));
    return Promise.resolve();
  });
  expect(await screen.findByRole("status")).toHaveTextContent("A new version of LiveLocal is available.");
  await userEvent.click(screen.getByRole("button", { name: "Reload" }));
  expect(reload).toHaveBeenCalledTimes(1);
});

test("the same build offers nothing", async () => {
  const fetchMock = stubLatest("build-1");
  render(<NewBuildNotice router={newRouter()} currentId="build-1" />);
  await act(() => {
    window.dispatchEvent(new Event("focus"));
    return Promise.resolve();
  });
  expect(fetchMock).toHaveBeenCalled();
  expect(screen.queryByRole("status")).not.toBeInTheDocument();
});

test("once a new build is known, the next navigation reloads, even after 'Later'", async () => {
  stubLatest("build-2");
  const reload = stubReload();
  const router = newRouter();
  render(<NewBuildNotice router={router} currentId="build-1" />);
  await act(() => {
    window.dispatchEvent(new Event("focus"));
    return Promise.resolve();
  });
  await userEvent.click(await screen.findByRole("button", { name: "Later" }));
  expect(screen.queryByRole("status")).not.toBeInTheDocument();
  expect(reload).not.toHaveBeenCalled();
  await act(() => router.navigate("/explore/streams"));
  expect(reload).toHaveBeenCalledTimes(1);
});
