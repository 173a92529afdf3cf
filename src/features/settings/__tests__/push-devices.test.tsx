import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { convexBackend } from "@/test/convex-backend";
import { sentCalls, type SentCall } from "@/test/convex-calls";
import { PushDevices } from "../push-devices";

const convex = convexBackend();
let calls: SentCall[];

/** A browser with push: its permission answer and its push service's `subscribe`. */
function browserWithPush(permission: NotificationPermission, subscribe: () => Promise<unknown>) {
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { register: () => Promise.resolve({ pushManager: { subscribe } }) },
  });
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", { requestPermission: () => Promise.resolve(permission) });
}

beforeEach(async () => {
  // The deployment's push keys: with them the server offers pushes (push:publicKey).
  vi.stubEnv("VAPID_PUBLIC_KEY", "BPublicKeyOfTheDeployment0");
  vi.stubEnv("VAPID_PRIVATE_KEY", "PrivateKeyOfTheDeployment0");
  await convex.signInAs("viewer");
  calls = sentCalls(convex.client);
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "serviceWorker");
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

function renderDevices() {
  render(<PushDevices />, { wrapper: convex.wrapper });
}

describe("adding this browser for pushes", () => {
  test("blocked notifications are said in the browser's own words, not as something going wrong", async () => {
    browserWithPush("denied", () => Promise.reject(new Error("never asked")));
    renderDevices();
    await userEvent.click(await screen.findByRole("button", { name: "Get pushes on this device" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This browser was not added. Notifications are blocked for LiveLocal in this browser's settings.",
    );
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  test("a push service that refuses is said in words too", async () => {
    browserWithPush("granted", () => Promise.reject(new DOMException("Registration failed", "AbortError")));
    renderDevices();
    await userEvent.click(await screen.findByRole("button", { name: "Get pushes on this device" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This browser was not added. This browser's push service did not answer. Please try again later.",
    );
    expect(calls).toEqual([]);
  });

  test("a granted permission registers the device with its address and keys", async () => {
    browserWithPush("granted", () =>
      Promise.resolve({
        toJSON: () => ({
          endpoint: "https://push.example/abc",
          keys: { p256dh: "BPushKeyOfThisBrowser", auth: "AuthSecret0" },
        }),
      }),
    );
    renderDevices();
    await userEvent.click(await screen.findByRole("button", { name: "Get pushes on this device" }));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      name: "push:registerDevice",
      args: { endpoint: "https://push.example/abc", p256dh: "BPushKeyOfThisBrowser", auth: "AuthSecret0" },
    });
    // The server kept it: the device list shows it.
    const devices = await screen.findByRole("list", { name: "Push devices" });
    expect(within(devices).getByText(/https:\/\/push\.example/)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
