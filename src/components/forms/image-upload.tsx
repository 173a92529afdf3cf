import { useMutation } from "convex/react";
import type { FunctionArgs } from "convex/server";
import { createContext, useContext, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useAuthToken, type GetAuthToken } from "@/lib/auth-token";
import { convexSiteUrl } from "@/lib/convex-site";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import { IMAGE_UPLOAD, imageUploadProblem } from "@convex/lib/limits";

/** Whose pictures a form's uploads are: its page says (the caller, a shop, a stream, a correction). */
export type ImageUploadTarget = FunctionArgs<typeof api.images.claimUpload>["target"];

type StorageId = FunctionArgs<typeof api.images.claimUpload>["storageId"];

/** Set by a form's page; image fields that may upload offer it only inside one. */
export const ImageUploadTargetContext = createContext<ImageUploadTarget | null>(null);

type UploadResult = { ok: true; url: string } | { ok: false; message: string };

/** What the person is told when the upload is refused without a sentence of the server's own. */
const UPLOAD_FAILED = "The picture could not be uploaded. Try again.";

/**
 * Posts the file to the upload HTTP action (convex/http.ts) with the person's token; its storage id, or
 * what to tell the person: the server's own sentence (too large, not a picture, too many at once) when
 * it sent one.
 */
async function postPicture(file: File, getToken: GetAuthToken): Promise<StorageId | { message: string }> {
  const token = await getToken();
  if (!token) return { message: "You are signed out. Sign in again to upload a picture." };
  let response: Response;
  try {
    response = await fetch(`${convexSiteUrl()}/images/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": file.type },
      body: file,
    });
  } catch {
    return { message: "LiveLocal could not be reached. Check your connection and try again." };
  }
  if (response.ok) return ((await response.json()) as { storageId: StorageId }).storageId;
  if (response.status === 401) {
    return { message: "Your sign-in could not be confirmed. Reload the page and try again." };
  }
  // Only a short plain sentence is the server's; anything else (a proxy's error page) is not shown.
  const isText = /^text\/plain\b/i.test(response.headers.get("Content-Type") ?? "");
  const text = isText ? (await response.text()).trim() : "";
  return { message: text && text.length <= 200 ? text : UPLOAD_FAILED };
}

/**
 * Uploads a picture (decisions 028 and 054): posted to the upload HTTP action, which records it as the
 * person's, then claimed for the form's target (the server checks type, size and owner), whose answer is
 * the address to put in the field. Saving the form puts it to use.
 */
function useUploadPicture(target: ImageUploadTarget): (file: File) => Promise<UploadResult> {
  const getToken = useAuthToken();
  const claimUpload = useMutation(api.images.claimUpload);
  return async (file) => {
    try {
      const posted = await postPicture(file, getToken);
      if (typeof posted !== "string") return { ok: false, message: posted.message };
      return await claimUpload({ storageId: posted, target });
    } catch (caught) {
      return { ok: false, message: errorMessage(caught) };
    }
  };
}

/**
 * A local preview of a chosen file while it uploads; revoked when replaced or unmounted. `onChange` hears
 * of each new address in the same update (not an effect later), so the form never shows a stale preview
 * beside "Uploaded".
 */
function usePreviewUrl(onChange?: (url: string | null) => void): (file: File | null) => void {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  return (file) => {
    const url = file && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : null;
    setPreview(url);
    onChange?.(url);
  };
}

type ImageUploadButtonProps = {
  /** What the picture is, for the button's accessible name: "Upload a picture for Logo". */
  label: string;
  /** The claimed file's address, for the field. */
  onUploaded: (url: string) => void;
  /** The chosen file's local preview while it uploads (null once done or failed). */
  onPreview?: (url: string | null) => void;
};

/**
 * "Upload a picture" beside an image field: opens the file picker, shows the chosen file while it
 * uploads, and says what happened in words. Renders nothing outside a form that says whose pictures its
 * uploads are (ImageUploadTargetContext).
 */
export function ImageUploadButton({ label, onUploaded, onPreview }: ImageUploadButtonProps) {
  const target = useContext(ImageUploadTargetContext);
  if (!target) return null;
  return <UploadButton target={target} label={label} onUploaded={onUploaded} onPreview={onPreview} />;
}

function UploadButton({
  target,
  label,
  onUploaded,
  onPreview,
}: ImageUploadButtonProps & { target: ImageUploadTarget }) {
  const upload = useUploadPicture(target);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [state, setState] = useState<{ tone: "pending" | "done" | "error"; text: string } | null>(null);
  const setPreview = usePreviewUrl(onPreview);

  async function choose(file: File | undefined) {
    if (!file) return;
    // The server's rule, checked before anything is sent (or previewed).
    const problem = imageUploadProblem(file);
    if (problem !== undefined) return setState({ tone: "error", text: problem });
    setPreview(file);
    setState({ tone: "pending", text: `Uploading ${file.name}…` });
    const result = await upload(file);
    setPreview(null);
    if (result.ok) {
      onUploaded(result.url);
      setState({ tone: "done", text: "Uploaded. The preview shows it; save to use it." });
    } else {
      setState({ tone: "error", text: result.message });
    }
  }

  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={IMAGE_UPLOAD.types.join(",")}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          void choose(event.target.files?.[0]);
          event.target.value = "";
        }}
      />
      <Button
        size="sm"
        variant="outline"
        disabled={state?.tone === "pending"}
        aria-label={`Upload a picture for ${label}`}
        onClick={() => inputRef.current?.click()}
      >
        <Icon name="lucide:upload" className="size-4" />
        Upload a picture
      </Button>
      <span className="text-xs text-slate-500 dark:text-slate-400">
        {IMAGE_UPLOAD.typeNames}, up to {IMAGE_UPLOAD.maxBytes / 1024 / 1024} MB
      </span>
      {/* A live region of its own (not role=status), so a form's own status stays the one to find. */}
      <p
        aria-live="polite"
        className="w-full text-sm text-slate-600 empty:hidden [overflow-wrap:anywhere] dark:text-slate-300"
      >
        {state?.tone === "error" ? (
          <span role="alert" className="text-red-700 dark:text-red-300">
            {state.text}
          </span>
        ) : (
          state?.text
        )}
      </p>
    </div>
  );
}
