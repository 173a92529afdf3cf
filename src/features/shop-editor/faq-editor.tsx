import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { LIMITS } from "@convex/lib/validation";
import type { FaqDraft } from "./shop-draft";

type FaqEditorProps = {
  entries: FaqDraft[];
  onChange: (entries: FaqDraft[]) => void;
  errors: Record<string, string>;
};

function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** Questions and answers: add, reorder with up and down, remove. */
export function FaqEditor({ entries, onChange, errors }: FaqEditorProps) {
  const edit = (index: number, patch: Partial<FaqDraft>) =>
    onChange(entries.map((entry, i) => (i === index ? { ...entry, ...patch } : entry)));
  return (
    <div className="space-y-4">
      {entries.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">No questions yet.</p>
      )}
      {entries.map((entry, index) => (
        <fieldset
          key={entry.key}
          className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
        >
          <legend className="px-1 text-sm font-semibold">Question {index + 1}</legend>
          <TextField
            label="Question"
            name={`faqSection.${index}.question`}
            value={entry.question}
            onChange={(question) => edit(index, { question })}
            error={errors[`faqSection.${index}.question`]}
            max={LIMITS.faqQuestion}
          />
          <TextField
            label="Answer"
            name={`faqSection.${index}.answer`}
            value={entry.answer}
            onChange={(answer) => edit(index, { answer })}
            error={errors[`faqSection.${index}.answer`]}
            max={LIMITS.faqAnswer}
            multiline
            rows={3}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Move question ${index + 1} up`}
              disabled={index === 0}
              onClick={() => onChange(moved(entries, index, index - 1))}
            >
              <Icon name="lucide:arrow-up" className="size-4" />
              Up
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Move question ${index + 1} down`}
              disabled={index === entries.length - 1}
              onClick={() => onChange(moved(entries, index, index + 1))}
            >
              <Icon name="lucide:arrow-down" className="size-4" />
              Down
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 dark:text-red-300"
              aria-label={`Remove question ${index + 1}`}
              onClick={() => onChange(entries.filter((_, i) => i !== index))}
            >
              <Icon name="lucide:trash-2" className="size-4" />
              Remove
            </Button>
          </div>
        </fieldset>
      ))}
      {errors.faqSection && <p className="text-sm text-red-700 dark:text-red-300">{errors.faqSection}</p>}
      <Button
        variant="outline"
        size="sm"
        disabled={entries.length >= LIMITS.faqEntries}
        onClick={() => onChange([...entries, { key: crypto.randomUUID(), question: "", answer: "" }])}
      >
        <Icon name="lucide:plus" className="size-4" />
        Add a question
      </Button>
    </div>
  );
}
