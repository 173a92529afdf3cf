import { useMutation, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-date";
import { pushSupported, serviceWorkerRegistration, subscribeThisBrowser } from "@/lib/push";

/** The person's devices that get pushes: add this browser, see each one, remove any. */
export function PushDevices() {
  const publicKey = useQuery(api.push.publicKey);
  const devices = useQuery(api.push.myDevices);
  const registerDevice = useMutation(api.push.registerDevice);
  const removeDevice = useMutation(api.push.removeDevice);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // The worker shows pushes even while no LiveLocal page is open; register it early.
    serviceWorkerRegistration().catch(() => undefined);
  }, []);

  async function addThisBrowser(key: string) {
    setError(null);
    setBusy(true);
    try {
      await registerDevice(await subscribeThisBrowser(key));
    } catch (caught) {
      setError(`This browser was not added. ${errorMessage(caught)}`);
    } finally {
      setBusy(false);
    }
  }

  async function remove(deviceId: Id<"pushSubscriptions">) {
    setError(null);
    try {
      await removeDevice({ deviceId });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <div className="mt-6">
      <h3 className="font-semibold">Devices that get pushes</h3>
      {devices && devices.length > 0 ? (
        <ul
          className="mt-2 divide-y divide-slate-200 text-sm dark:divide-slate-800"
          aria-label="Push devices"
        >
          {devices.map((device) => (
            <li key={device._id} className="flex items-center justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="font-medium">{device.label}</p>
                <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                  Added {formatDate(device.createdAt)} · {device.endpointOrigin}
                </p>
              </div>
              <Button variant="outline" size="sm" onClick={() => void remove(device._id)}>
                Remove<span className="sr-only"> {device.label}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">No device gets pushes yet.</p>
      )}
      {publicKey === null ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Pushes are not set up on this server.
        </p>
      ) : (
        publicKey !== undefined &&
        pushSupported() && (
          <Button
            className="mt-3"
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => void addThisBrowser(publicKey)}
          >
            Get pushes on this device
          </Button>
        )
      )}
      {error && (
        <div className="mt-3">
          <FormAlert message={error} />
        </div>
      )}
    </div>
  );
}
