import { useState, type ReactNode } from "react";
import { cn } from "@/lib/cn";
import { httpUrl } from "@convex/lib/validation";
import { TextField } from "./text-field";

type ImageUrlFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  /** The preview's shape: wide for banners and covers, square for logos and products. */
  shape?: "wide" | "square";
};

/** A link to an image with a preview, shown only once the link passes the shared schema. */
export function ImageUrlField({ label, shape = "wide", ...field }: ImageUrlFieldProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = field.value.trim();
  const previewable = url !== "" && httpUrl.safeParse(url).success;
  return (
    <div className="min-w-0">
      <TextField label={label} type="url" placeholder="https://" {...field} />
      {previewable &&
        (failed === url ? (
          <p className="mt-2 text-sm text-amber-800 dark:text-amber-200">This image could not be loaded.</p>
        ) : (
          <img
            src={url}
            alt={`${label} preview`}
            onError={() => setFailed(url)}
            className={cn(
              "mt-2 rounded-lg border border-slate-200 bg-slate-50 object-cover dark:border-slate-800 dark:bg-slate-800",
              shape === "wide" ? "aspect-[3/1] w-full max-w-md" : "size-20",
            )}
          />
        ))}
    </div>
  );
}
