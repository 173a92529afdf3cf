import { useMutation } from "convex/react";
import { useState, type FormEvent } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import {
  ImageUploadButton,
  ImageUploadTargetContext,
  type ImageUploadTarget,
} from "@/components/forms/image-upload";
import { TextField } from "@/components/forms/text-field";
import { Avatar } from "@/components/layout/avatar";
import { Button } from "@/components/ui/button";
import { mode } from "@/config/env";
import { errorMessage } from "@/lib/errors";
import { ROLE_LABELS } from "@/lib/roles";
import { api } from "@convex/_generated/api";
import type { Role } from "@convex/lib/constants";
import { avatarSettingSchema, LIMITS } from "@convex/lib/validation";
import { SaveStatus } from "./save-status";
import { SettingsSection } from "./settings-section";
import { useImageStatus } from "./use-image-status";

/** The profile picture's uploads are the person's own. */
const ME: ImageUploadTarget = { kind: "me" };

type ProfileSectionProps = {
  user: { name?: string; email: string; role: Role };
  avatar: string | undefined;
};

/** Name, email and role as the sign-in account gives them, and the profile picture the person chooses. */
export function ProfileSection({ user, avatar }: ProfileSectionProps) {
  const setAvatar = useMutation(api.settings.setAvatar);
  const [draft, setDraft] = useState(avatar ?? "");
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  // A chosen file's local preview while it uploads.
  const [uploading, setUploading] = useState<string | null>(null);
  const parsed = avatarSettingSchema.safeParse(draft);
  const fieldError = parsed.success ? undefined : parsed.error.issues[0]?.message;
  const previewUrl = uploading ?? (parsed.success ? parsed.data : undefined);
  const imageStatus = useImageStatus(previewUrl);
  const changed = (parsed.success ? parsed.data : draft.trim()) !== avatar;
  const name = user.name ?? user.email;

  async function save(next: string | undefined, done: string) {
    setPending(true);
    setServerError(null);
    setSaved(null);
    try {
      await setAvatar({ avatar: next ?? "" });
      setDraft(next ?? "");
      setTouched(false);
      setSaved(done);
    } catch (caught) {
      setServerError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success) return;
    void save(
      parsed.data,
      parsed.data ? "Saved — your new picture is showing." : "Saved — your picture was removed.",
    );
  }

  return (
    <SettingsSection
      id="profile"
      title="Profile"
      icon="lucide:circle-user"
      description="Your name and email come from the account you sign in with."
    >
      <div className="flex items-start gap-4 sm:gap-6">
        <div className="flex flex-col items-center gap-1">
          <Avatar
            name={name}
            url={imageStatus === "failed" ? undefined : previewUrl}
            className="size-16 text-xl sm:size-20 sm:text-2xl"
          />
          <span className="text-xs text-slate-500 dark:text-slate-400">Preview</span>
        </div>
        <dl className="grid min-w-0 flex-1 gap-3 sm:grid-cols-[6rem_1fr] sm:gap-x-4">
          <ProfileField term="Name" value={user.name ?? "Not set"} />
          <ProfileField term="Email" value={user.email} />
          <ProfileField term="Role" value={ROLE_LABELS[user.role]} />
        </dl>
      </div>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        Creating your first live shop makes you a seller; other role changes are made by LiveLocal admins.
      </p>

      <form
        noValidate
        onSubmit={submit}
        onBlur={(event) => event.target.getAttribute("name") === "avatar" && setTouched(true)}
        className="mt-6 space-y-3 border-t border-slate-200 pt-6 dark:border-slate-800"
      >
        <TextField
          label="Picture link"
          name="avatar"
          type="url"
          placeholder="https://"
          autoComplete="photo"
          value={draft}
          onChange={(value) => {
            setDraft(value);
            setSaved(null);
          }}
          error={touched ? fieldError : undefined}
          max={LIMITS.avatar}
          optional
          hint={
            mode === "clerk"
              ? "Upload a square picture, or give an http:// or https:// link to one. Changing your picture in your sign-in account later replaces this one."
              : "Upload a square picture, or give an http:// or https:// link to one. Without one, your initials are shown."
          }
        />
        <ImageUploadTargetContext value={ME}>
          <ImageUploadButton
            label="your profile picture"
            onPreview={setUploading}
            onUploaded={(url) => {
              setDraft(url);
              setSaved(null);
            }}
          />
        </ImageUploadTargetContext>
        {imageStatus === "failed" && (
          <p className="text-sm text-amber-800 dark:text-amber-200">
            This image could not be loaded, so your initials are shown. Check the link.
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending || !changed}>
            {pending ? "Saving…" : "Save picture"}
          </Button>
          {avatar !== undefined && (
            <Button
              variant="outline"
              disabled={pending}
              onClick={() => void save(undefined, "Saved — your picture was removed.")}
            >
              Remove picture
            </Button>
          )}
        </div>
        <SaveStatus message={saved} />
        <FormAlert message={serverError} />
      </form>
    </SettingsSection>
  );
}

function ProfileField({ term, value }: { term: string; value: string }) {
  return (
    <div className="sm:contents">
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="break-all">{value}</dd>
    </div>
  );
}
