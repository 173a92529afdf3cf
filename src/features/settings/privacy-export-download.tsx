import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useAuthToken, type GetAuthToken } from "@/lib/auth-token";
import { convexSiteUrl } from "@/lib/convex-site";
import { DateText, type MyPrivacy } from "@/components/privacy/privacy-status";

type DataExport = NonNullable<MyPrivacy["dataExport"]>;

/** What the person is told when the download fails, by the HTTP action's answer. */
const FAILURES: Record<number, string> = {
  401: "Your sign-in could not be confirmed. Reload the page and try again.",
  404: "This file is no longer available. Request a new copy of your data.",
};

class DownloadError extends Error {}

/** `filename="…"` from a Content-Disposition header, when it is there and readable. */
export function fileNameFrom(disposition: string | null): string | null {
  const match = disposition === null ? null : /filename="?([^";]+)"?/i.exec(disposition);
  return match?.[1]?.trim() || null;
}

/** Fetches the caller's export from the authenticated HTTP action and hands it to the browser as a file. */
export async function downloadDataExport(getToken: GetAuthToken): Promise<void> {
  const token = await getToken();
  if (!token) throw new DownloadError("You are signed out. Sign in again to download your data.");
  let response: Response;
  try {
    response = await fetch(`${convexSiteUrl()}/privacy/export`, {
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch {
    throw new DownloadError("LiveLocal could not be reached. Check your connection and try again.");
  }
  if (!response.ok) {
    throw new DownloadError(
      FAILURES[response.status] ?? `The download failed (HTTP ${response.status}). Please try again.`,
    );
  }
  // Anything but JSON (an HTML page from a misrouted request, say) is not the person's data.
  if (!/^application\/json\b/i.test(response.headers.get("Content-Type") ?? "")) {
    throw new DownloadError("The download failed: the server did not send your data. Please try again.");
  }
  const blob = await response.blob();
  const fileName =
    fileNameFrom(response.headers.get("Content-Disposition")) ??
    `livelocal-data-export-${new Date().toISOString().slice(0, 10)}.json`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click starts the download at once; the URL only has to outlive it.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A ready export: the button that downloads it and how long it stays available. */
export function PrivacyExportDownload({ dataExport }: { dataExport: DataExport }) {
  const getToken = useAuthToken();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setDownloading(true);
    setError(null);
    try {
      await downloadDataExport(getToken);
    } catch (caught) {
      setError(caught instanceof DownloadError ? caught.message : "The download failed. Please try again.");
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div
      role="group"
      aria-label="Your data export"
      className="rounded-2xl border border-primary-500/50 bg-primary-50/70 p-4 sm:p-6 dark:border-primary-500/40 dark:bg-primary-900/20"
    >
      <h3 className="flex items-center gap-2 text-base font-semibold">
        <Icon name="lucide:circle-check" className="size-5 text-primary-700 dark:text-primary-100" />
        Your data is ready
      </h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
        A JSON file of everything LiveLocal stores about you ({formatBytes(dataExport.byteLength)}), prepared{" "}
        <DateText at={dataExport.createdAt} />. Available until <DateText at={dataExport.expiresAt} />; after
        that it is deleted and you can ask for a new one.
      </p>
      <div className="mt-4 space-y-3">
        <Button disabled={downloading} onClick={() => void download()}>
          <Icon name="lucide:download" className="size-4" />
          {downloading ? "Downloading…" : "Download your data"}
        </Button>
        <FormAlert message={error} />
      </div>
    </div>
  );
}
