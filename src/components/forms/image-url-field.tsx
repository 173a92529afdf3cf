import { useState, type ReactNode } from "react";
import { cn } from "@/lib/cn";
import { httpUrl } from "@convex/lib/validation";
import { ImageUploadButton } from "./image-upload";
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
  /**
   * Offers "Upload a picture" (inside a form that says whose pictures they are): the field then holds
   * the uploaded file's address. Only for the fields whose uploads the server keeps (decision 028).
   */
  upload?: boolean;
};

/**
 * A picture's link with a preview, shown only once the link passes the shared schema; or, with
 * `upload`, a picture uploaded from the device, previewed while it uploads and before the form is saved.
 */
export function ImageUrlField({ label, shape = "wide", upload = false, ...field }: ImageUrlFieldProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const url = field.value.trim();
  const previewUrl = uploading ?? (url !== "" && httpUrl.safeParse(url).success ? url : null);
  return (
    <div className="min-w-0">
      <TextField label={label} type="url" placeholder="https://" {...field} />
      {upload && <ImageUploadButton label={label} onUploaded={field.onChange} onPreview={setUploading} />}
      {previewUrl &&
        (failed === previewUrl ? (
          <p className="mt-2 text-sm text-amber-800 dark:text-amber-200">This image could not be loaded.</p>
        ) : (
          <img
            src={previewUrl}
            alt={`${label} preview`}
            onError={() => setFailed(previewUrl)}
            className={cn(
              "mt-2 rounded-lg border border-slate-200 bg-slate-50 object-cover dark:border-slate-800 dark:bg-slate-800",
              shape === "wide" ? "aspect-[3/1] w-full max-w-md" : "size-20",
              uploading && "opacity-60",
            )}
          />
        ))}
    </div>
  );
}
