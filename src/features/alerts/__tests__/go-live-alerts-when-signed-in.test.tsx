import { act, render, screen } from "@testing-library/react";
import { getFunctionName } from "convex/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { NoticesProvider } from "@/components/notices/notices";
import { setConvexAuth, useMockConvexAuth } from "@/test/convex-auth-mock";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { GoLiveAlertsWhenSignedIn } from "../go-live-alerts-when-signed-in";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const useQueryMock = vi.mocked(convexReactMock.useQuery);
const mockQuery = useQueryMock.getMockImplementation();

beforeEach(() => {
  resetConvexMock();
  useQueryMock.mockClear();
  setConvexAuth("signedOut");
  mutationImpl.current = () =>
    Promise.resolve({
      streamId: "stream1",
      streamTitle: "Spring plant swap",
      liveShopName: "Green Corner",
      reason: "saved",
    });
});

afterEach(() => {
  if (mockQuery) useQueryMock.mockImplementation(mockQuery);
  vi.restoreAllMocks();
});

const pendingQueried = () =>
  useQueryMock.mock.calls.some(([ref]) => getFunctionName(ref) === "goLiveAlerts:myPendingAlerts");

function renderInLayout() {
  render(
    <MemoryRouter>
      <NoticesProvider>
        <h1>Page</h1>
        <GoLiveAlertsWhenSignedIn />
      </NoticesProvider>
    </MemoryRouter>,
  );
}

test("signed out, no alerts are asked for; signed in, they are claimed and announced; signed out again, they stop", async () => {
  setQueryResult(api.goLiveAlerts.myPendingAlerts, [{ _id: "alert1", createdAt: 1 }]);
  renderInLayout();
  expect(pendingQueried()).toBe(false);

  act(() => setConvexAuth("signedIn"));
  expect(await screen.findByText("Spring plant swap is live now")).toBeInTheDocument();
  expect(mutationCalls).toEqual([{ name: "goLiveAlerts:claim", args: { alertId: "alert1" } }]);

  act(() => setConvexAuth("signedOut"));
  useQueryMock.mockClear();
  act(() => setQueryResult(api.goLiveAlerts.myPendingAlerts, [{ _id: "alert2", createdAt: 2 }]));
  expect(pendingQueried()).toBe(false);
  expect(mutationCalls).toHaveLength(1);
});

test("alerts that fail leave the page standing and say so in the console", async () => {
  setConvexAuth("signedIn");
  const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  useQueryMock.mockImplementation(() => {
    throw new Error("Server error");
  });
  renderInLayout();
  await vi.waitFor(() =>
    expect(consoleError).toHaveBeenCalledWith("Go-live alerts stopped in this tab:", expect.any(Error)),
  );
  expect(screen.getByRole("heading", { name: "Page" })).toBeInTheDocument();
  expect(mutationCalls).toEqual([]);
});
