import { Field, controlClass } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { contrastRatio, MIN_TEXT_CONTRAST } from "@/lib/contrast";

const HEX = /^#[0-9a-f]{6}$/i;

type ColorFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
};

/** A colour as a picker and as `#rrggbb` text, warning when white text on it would be hard to read. */
export function ColorField({ label, name, value, onChange, error }: ColorFieldProps) {
  const hex = value.trim();
  const ratio = HEX.test(hex) ? contrastRatio(hex, "#ffffff") : null;
  return (
    <Field label={label} optional error={error} hint="Used behind white text on your shop's page.">
      {(control) => (
        <>
          <div className="mt-1 flex items-center gap-2">
            <input
              type="color"
              aria-label={`${label} picker`}
              value={HEX.test(hex) ? hex.toLowerCase() : "#000000"}
              onChange={(event) => onChange(event.target.value)}
              className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-900"
            />
            <input
              {...control}
              name={name}
              value={value}
              placeholder="#166534"
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => onChange(event.target.value)}
              className={`${controlClass} mt-0 font-mono`}
            />
            {value !== "" && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onChange("")}
                aria-label={`Clear ${label.toLowerCase()}`}
              >
                Clear
              </Button>
            )}
          </div>
          {ratio !== null && ratio < MIN_TEXT_CONTRAST && (
            <p className="mt-2 flex items-start gap-2 text-sm text-amber-800 dark:text-amber-200">
              <Icon name="lucide:triangle-alert" className="mt-0.5 size-4" />
              Low contrast: white text on this colour is {ratio.toFixed(1)}:1, below the {MIN_TEXT_CONTRAST}:1
              that WCAG asks for. A darker colour keeps your page readable.
            </p>
          )}
        </>
      )}
    </Field>
  );
}
