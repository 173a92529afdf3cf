import { useId } from "react";
import { cn } from "@/lib/cn";
import { useSaveFeedback } from "./save-feedback";

export type PreferenceItem<K extends string> = { key: K; label: string; description: string };

type PreferenceSwitchesProps<K extends string> = {
  items: readonly PreferenceItem<K>[];
  values: Record<K, boolean>;
  /** Saves one switch; the caller shows the new value at once and Convex rolls it back on failure. */
  save: (key: K, value: boolean) => Promise<unknown>;
};

/**
 * Switches that save as they are flipped: the new position shows at once, "Saved" is announced
 * politely, and a refused save puts the switch back and says why.
 */
export function PreferenceSwitches<K extends string>({ items, values, save }: PreferenceSwitchesProps<K>) {
  const { save: saving, feedback } = useSaveFeedback("mt-4");

  async function flip(item: PreferenceItem<K>, value: boolean) {
    await saving(
      () => save(item.key, value),
      `Saved — ${item.label} is ${value ? "on" : "off"}.`,
      `${item.label} was not changed.`,
    );
  }

  return (
    <div>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {items.map((item) => (
          <li key={item.key} className="py-3 first:pt-0 last:pb-0">
            <PreferenceSwitch
              item={item}
              checked={values[item.key]}
              onChange={(value) => void flip(item, value)}
            />
          </li>
        ))}
      </ul>
      {feedback}
    </div>
  );
}

function PreferenceSwitch<K extends string>({
  item,
  checked,
  onChange,
}: {
  item: PreferenceItem<K>;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="font-medium">
          {item.label}
        </label>
        <p id={`${id}-description`} className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
          {item.description}
        </p>
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={`${id}-description`}
        onClick={() => onChange(!checked)}
        className={cn(
          "relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600",
          checked ? "bg-primary-700" : "bg-slate-300 dark:bg-slate-700",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "inline-block size-5 rounded-full bg-white shadow transition-transform",
            checked ? "translate-x-5.5" : "translate-x-0.5",
          )}
        />
      </button>
    </div>
  );
}
