/**
 * The browser side of Web Push (decision 036): the service worker (`public/sw.js`) that shows pushes,
 * and subscribing this browser with the deployment's VAPID public key.
 */

import { UserFacingError } from "./errors";

export const SERVICE_WORKER_PATH = "/sw.js";

export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Registers (or finds) the service worker; null where the browser has none. */
export async function serviceWorkerRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  return await navigator.serviceWorker.register(SERVICE_WORKER_PATH);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** "Chrome on Linux": what the device list calls this browser. */
export function deviceLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "this device";
  return `${browser} on ${system}`;
}

/** Asks permission and subscribes this browser; throws a sentence (a UserFacingError) when it cannot. */
export async function subscribeThisBrowser(vapidPublicKey: string) {
  const registration = await serviceWorkerRegistration().catch(() => null);
  if (!registration || !pushSupported()) throw new UserFacingError("This browser cannot receive pushes.");
  if ((await Notification.requestPermission()) !== "granted") {
    throw new UserFacingError("Notifications are blocked for LiveLocal in this browser's settings.");
  }
  const applicationServerKey = keyBytes(vapidPublicKey);
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  } catch {
    // The browser's push service refused or could not be reached (offline, a private window).
    throw new UserFacingError("This browser's push service did not answer. Please try again later.");
  }
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) {
    throw new UserFacingError("This browser gave no push address.");
  }
  return { endpoint, p256dh: keys.p256dh, auth: keys.auth, label: deviceLabel(navigator.userAgent) };
}
