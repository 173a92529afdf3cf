import { useEffect, useState } from "react";

export type ImageStatus = "none" | "loading" | "loaded" | "failed";

/** Whether the image at `url` loads, probed off-screen so a broken link can fall back to initials. */
export function useImageStatus(url: string | undefined): ImageStatus {
  const [result, setResult] = useState<{ url: string; status: "loaded" | "failed" } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    const probe = new Image();
    probe.onload = () => current && setResult({ url, status: "loaded" });
    probe.onerror = () => current && setResult({ url, status: "failed" });
    probe.src = url;
    return () => {
      current = false;
      probe.onload = null;
      probe.onerror = null;
    };
  }, [url]);
  if (!url) return "none";
  return result?.url === url ? result.status : "loading";
}
