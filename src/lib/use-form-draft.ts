import { useCallback, useMemo, useState, type FocusEvent } from "react";

/**
 * A form's values and what has been saved, so the form knows when it has unsaved changes. Errors are
 * shown for fields the person has left (by their input's `name`, the value's path) and, after a first
 * attempt to save, for every field.
 */
export function useFormDraft<T extends object>(initial: T) {
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);

  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(saved), [values, saved]);

  const update = useCallback((patch: Partial<T>) => setValues((current) => ({ ...current, ...patch })), []);

  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    const name = event.target.getAttribute("name");
    if (name) setTouched((current) => (current.has(name) ? current : new Set(current).add(name)));
  }, []);

  /**
   * After a save: `sent` (the values the save sent) is what "unsaved" is now measured against. Edits
   * made while the save was on its way stay unsaved.
   */
  const markSaved = useCallback((sent: T) => {
    setSaved(sent);
    setSubmitted(false);
    setTouched(new Set());
  }, []);

  const visibleErrors = useCallback(
    (errors: Record<string, string>) =>
      submitted ? errors : Object.fromEntries(Object.entries(errors).filter(([path]) => touched.has(path))),
    [submitted, touched],
  );

  return {
    values,
    saved,
    update,
    setValues,
    dirty,
    onBlur,
    markSaved,
    submitted,
    setSubmitted,
    visibleErrors,
  };
}
