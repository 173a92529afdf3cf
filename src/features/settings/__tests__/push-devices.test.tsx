import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { convexReactMock, mutationCalls, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { PushDevices } from "../push-devices";

vi.mock("convex/react", () => convexReactMock);

/** A browser with push: its permission answer and its push service's `subscribe`. */
function browserWithPush(permission: NotificationPermission, subscribe: () => Promise<unknown>) {
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { register: () => Promise.resolve({ pushManager: { subscribe } }) },
  });
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", { requestPermission: () => Promise.resolve(permission) });
}

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.push.publicKey, "BPublicKeyOfTheDeployment0");
  setQueryResult(api.push.myDevices, []);
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "serviceWorker");
  vi.unstubAllGlobals();
});

describe("adding this browser for pushes", () => {
  test("blocked notifications are said in the browser's own words, not as something going wrong", async () => {
    browserWithPush("denied", () => Promise.reject(new Error("never asked")));
    render(<PushDevices />);
    await userEvent.click(screen.getByRole("button", { name: "Get pushes on this device" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This browser was not added. Notifications are blocked for LiveLocal in this browser's settings.",
    );
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(mutationCalls).toEqual([]);
  });

  test("a push service that refuses is said in words too", async () => {
    browserWithPush("granted", () => Promise.reject(new DOMException("Registration failed", "AbortError")));
    render(<PushDevices />);
    await userEvent.click(screen.getByRole("button", { name: "Get pushes on this device" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This browser was not added. This browser's push service did not answer. Please try again later.",
    );
    expect(mutationCalls).toEqual([]);
  });

  test("a granted permission registers the device with its address and keys", async () => {
    browserWithPush("granted", () =>
      Promise.resolve({
        toJSON: () => ({ endpoint: "https://push.example/abc", keys: { p256dh: "p", auth: "a" } }),
      }),
    );
    render(<PushDevices />);
    await userEvent.click(screen.getByRole("button", { name: "Get pushes on this device" }));
    await vi.waitFor(() => expect(mutationCalls).toHaveLength(1));
    expect(mutationCalls[0]).toMatchObject({
      name: "push:registerDevice",
      args: { endpoint: "https://push.example/abc", p256dh: "p", auth: "a" },
    });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
