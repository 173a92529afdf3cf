import { FieldsetList } from "@/components/forms/fieldset-list";
import { TextField } from "@/components/forms/text-field";
import { LIMITS } from "@convex/lib/validation";
import type { FaqDraft } from "./shop-draft";

type FaqEditorProps = {
  entries: FaqDraft[];
  onChange: (entries: FaqDraft[]) => void;
  errors: Record<string, string>;
};

/** Questions and answers, in the order the shop's page shows them. */
export function FaqEditor({ entries, onChange, errors }: FaqEditorProps) {
  return (
    <FieldsetList
      items={entries}
      onChange={onChange}
      keyOf={(entry) => entry.key}
      nameOf={(_, index) => `question ${index + 1}`}
      newItem={() => ({ key: crypto.randomUUID(), question: "", answer: "" })}
      addLabel="Add a question"
      max={LIMITS.faqEntries}
      reorder
      empty="No questions yet."
      error={errors.faqSection}
      legend
      rowClassName="space-y-3"
      renderItem={(entry, index, edit) => (
        <>
          <TextField
            label="Question"
            name={`faqSection.${index}.question`}
            value={entry.question}
            onChange={(question) => edit({ question })}
            error={errors[`faqSection.${index}.question`]}
            max={LIMITS.faqQuestion}
          />
          <TextField
            label="Answer"
            name={`faqSection.${index}.answer`}
            value={entry.answer}
            onChange={(answer) => edit({ answer })}
            error={errors[`faqSection.${index}.answer`]}
            max={LIMITS.faqAnswer}
            multiline
            rows={3}
          />
        </>
      )}
    />
  );
}
