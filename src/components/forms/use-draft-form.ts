import { useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { errorMessage } from "@/lib/errors";
import type { useFormDraft } from "@/lib/use-form-draft";
import { useUnsavedChangesGuard } from "./use-unsaved-changes-guard";

type Parsed<P> = { data?: P; errors: Record<string, string> };

type DraftFormOptions<T extends object, P, Id> = {
  /** The values, from `useFormDraft`. */
  draft: ReturnType<typeof useFormDraft<T>>;
  /** The shared schemas over the whole form: data when valid, errors keyed by the fields' paths. */
  parse: (values: T) => Parsed<P>;
  /** Sends a valid form, whole (decision 060). */
  save: (data: P) => Promise<Id>;
  /** For a new record: called after the first save, with navigation away allowed. */
  onCreated?: (id: Id) => void;
};

/**
 * A form over a draft: shows the schema's errors beside fields the person left and, after an attempt
 * to save, everywhere (focusing the first); sends only valid data; keeps every value when the server
 * refuses, showing its words; and guards unsaved changes against navigation.
 */
export function useDraftForm<T extends object, P, Id>({
  draft: form,
  parse,
  save,
  onCreated,
}: DraftFormOptions<T, P, Id>) {
  const guard = useUnsavedChangesGuard(form.dirty);
  const formRef = useRef<HTMLFormElement>(null);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { data, errors } = parse(form.values);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Rendered at once, so the first field marked invalid can take focus.
    flushSync(() => {
      form.setSubmitted(true);
      setServerError(null);
      setNotice(null);
    });
    if (data === undefined) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const sent = form.values;
    setSaving(true);
    try {
      const id = await save(data);
      form.markSaved(sent);
      if (onCreated) {
        guard.allowNextNavigation();
        onCreated(id);
      } else {
        setNotice("Your changes are saved.");
      }
    } catch (caught) {
      setServerError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  }

  const formProps = {
    ref: formRef,
    noValidate: true,
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event),
    onBlur: form.onBlur,
  };
  const footer = {
    saving,
    dirty: form.dirty,
    invalidCount: form.submitted ? Object.keys(errors).length : 0,
    serverError,
    notice,
  };
  return { ...form, errors: form.visibleErrors(errors), formProps, footer, guardDialog: guard.dialog };
}
