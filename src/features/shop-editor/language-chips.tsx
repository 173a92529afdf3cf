import { cn } from "@/lib/cn";
import { LANGUAGE_LABELS, LANGUAGES, type Language } from "@convex/lib/constants";

type LanguageChipsProps = { value: Language[]; onChange: (languages: Language[]) => void; error?: string };

/** The 20 languages as toggle chips; the shop's choice keeps the list's order. */
export function LanguageChips({ value, onChange, error }: LanguageChipsProps) {
  const toggle = (language: Language) =>
    onChange(
      value.includes(language)
        ? value.filter((other) => other !== language)
        : LANGUAGES.filter((code) => code === language || value.includes(code)),
    );
  return (
    <fieldset>
      <legend className="text-sm font-medium">Languages spoken on your shows</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {LANGUAGES.map((language) => {
          const selected = value.includes(language);
          return (
            <button
              key={language}
              type="button"
              aria-pressed={selected}
              onClick={() => toggle(language)}
              className={cn(
                "rounded-full border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600",
                selected
                  ? "border-primary-700 bg-primary-700 text-white"
                  : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800",
              )}
            >
              {LANGUAGE_LABELS[language]}
            </button>
          );
        })}
      </div>
      {error && <p className="mt-1 text-sm text-red-700 dark:text-red-300">{error}</p>}
    </fieldset>
  );
}
