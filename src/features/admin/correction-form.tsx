import { ConvexError } from "convex/values";
import { useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { FormAlert } from "@/components/forms/form-alert";
import { ImageUrlField } from "@/components/forms/image-url-field";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { useRefusalHandOff } from "@/lib/use-refusal-hand-off";
import { fieldErrors } from "@convex/lib/validation";

export type CorrectionField<Name extends string> = {
  name: Name;
  label: string;
  max: number;
  multiline?: boolean;
  optional?: boolean;
  type?: "text" | "email" | "url";
  hint?: ReactNode;
  /** A picture: a link or an upload, previewed (ImageUrlField). */
  image?: boolean;
};

type CorrectionFormProps<Name extends string> = {
  /** Names the form for assistive technology: "Correct the profile", "Correct Nina's Vintage". */
  label: string;
  fields: readonly CorrectionField<Name>[];
  initial: Record<Name, string>;
  /** The same schema the server checks with (convex/lib/validation.ts). */
  schema: z.ZodType;
  /** The server's field paths start with this (`profile.`), stripped to find the field. */
  serverPrefix: string;
  /** Saves the values; resolves with how many fields changed. */
  save: (values: Record<Name, string>) => Promise<number>;
  /** Below the fields: a picture's preview or upload, say. */
  children?: ReactNode;
  /** A refusal that came when the form had left the page (the request was answered meanwhile). */
  onOrphanedRefusal?: (message: string) => void;
};

function serverFieldErrors(error: unknown, prefix: string): Record<string, string> {
  if (!(error instanceof ConvexError)) return {};
  const data = error.data as { fields?: Record<string, string> };
  return Object.fromEntries(
    Object.entries(data.fields ?? {}).map(([path, message]) => [path.replace(prefix, ""), message]),
  );
}

/**
 * One correction on the admin's correction screen: a few text fields of the person's data, checked by
 * the shared schema in the browser and again on the server, saved together. Says how many fields
 * changed (each is then shown to the person and logged), or that nothing did.
 */
export function CorrectionForm<Name extends string>({
  label,
  fields,
  initial,
  schema,
  serverPrefix,
  save,
  children,
  onOrphanedRefusal,
}: CorrectionFormProps<Name>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const handOff = useRefusalHandOff(onOrphanedRefusal);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    setFailure(null);
    handOff.clear();
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const changed = await save(values);
      setSaved(
        changed === 0
          ? "Nothing changed: these are the values already stored."
          : `Saved: ${changed} ${changed === 1 ? "change" : "changes"}, now listed for the person.`,
      );
    } catch (caught) {
      setErrors(serverFieldErrors(caught, serverPrefix));
      handOff.refuse(errorMessage(caught), setFailure);
    } finally {
      setPending(false);
    }
  }

  return (
    <form aria-label={label} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      {fields.map((field) =>
        field.image ? (
          <ImageUrlField
            key={field.name}
            label={field.label}
            name={field.name}
            value={values[field.name]}
            onChange={(value) => {
              setValues((current) => ({ ...current, [field.name]: value }));
              setSaved(null);
            }}
            error={errors[field.name]}
            optional={field.optional}
            hint={field.hint}
            shape="square"
            upload
          />
        ) : (
          <TextField
            key={field.name}
            label={field.label}
            name={field.name}
            type={field.type}
            value={values[field.name]}
            onChange={(value) => {
              setValues((current) => ({ ...current, [field.name]: value }));
              setSaved(null);
            }}
            error={errors[field.name]}
            max={field.max}
            multiline={field.multiline}
            rows={field.multiline ? 3 : undefined}
            optional={field.optional}
            hint={field.hint}
          />
        ),
      )}
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save corrections"}
        </Button>
        <p role="status" className="text-sm text-primary-700 empty:hidden dark:text-primary-100">
          {saved}
        </p>
      </div>
      <FormAlert message={failure} />
    </form>
  );
}
