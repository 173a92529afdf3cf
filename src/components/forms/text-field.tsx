import type { HTMLInputTypeAttribute, ReactNode } from "react";
import { Field, controlClass } from "./field";

type TextFieldProps = {
  label: ReactNode;
  /** The value's path in the form (`faqSection.0.answer`): marks the field touched and finds its error. */
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** The schema's maximum length: shown as a counter; the schema, not the input, enforces it. */
  max?: number;
  optional?: boolean;
  hint?: ReactNode;
  multiline?: boolean;
  rows?: number;
  type?: HTMLInputTypeAttribute;
  placeholder?: string;
  autoComplete?: string;
  className?: string;
};

/** A text input or textarea inside a Field; the counter counts what will be saved (trimmed). */
export function TextField({
  name,
  value,
  onChange,
  max,
  multiline,
  rows = 4,
  type = "text",
  placeholder,
  autoComplete,
  ...field
}: TextFieldProps) {
  const count = max === undefined ? undefined : { used: value.trim().length, max };
  return (
    <Field {...field} count={count}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            name={name}
            rows={rows}
            value={value}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
            className={controlClass}
          />
        ) : (
          <input
            {...control}
            name={name}
            type={type}
            value={value}
            placeholder={placeholder}
            autoComplete={autoComplete}
            onChange={(event) => onChange(event.target.value)}
            className={controlClass}
          />
        )
      }
    </Field>
  );
}
