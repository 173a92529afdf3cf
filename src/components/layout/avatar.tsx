import { useState } from "react";
import { cn } from "@/lib/cn";

/** "Avery Chen" → "AC"; one word gives one letter. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => word?.[0]?.toUpperCase() ?? "").join("") || "?";
}

/**
 * A round picture, or the person's initials when there is none or it fails to load (never a broken
 * image, wherever it is shown). Decorative: the caller names it, and may point `aria-labelledby` at `id`
 * to add the initials, when they are drawn, to that name.
 */
export function Avatar({
  name,
  url,
  className,
  id,
}: {
  name: string;
  url?: string;
  className?: string;
  id?: string;
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const base = cn(
    "inline-flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full",
    className,
  );
  if (url && url !== failedUrl) {
    return (
      <img id={id} src={url} alt="" onError={() => setFailedUrl(url)} className={cn(base, "object-cover")} />
    );
  }
  return (
    <span id={id} aria-hidden="true" className={cn(base, "bg-primary-700 text-sm font-semibold text-white")}>
      {initialsOf(name)}
    </span>
  );
}
