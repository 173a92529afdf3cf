import { useId, useState } from "react";
import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";
import type { PublicShop } from "./public-shop";

/** Questions and answers as disclosures: a button with aria-expanded controlling its answer. */
export function ShopFaq({ entries }: { entries: PublicShop["faqSection"] }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="faq-heading">
      <h2 id="faq-heading" className="text-xl font-semibold tracking-tight">
        Questions and answers
      </h2>
      <ul className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {entries.map((entry, index) => (
          <FaqItem key={index} question={entry.question} answer={entry.answer} />
        ))}
      </ul>
    </section>
  );
}

function FaqItem({ question, answer }: { question: string; answer: string }) {
  const [open, setOpen] = useState(false);
  const answerId = useId();
  return (
    <li>
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={answerId}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-4 px-4 py-3 text-left font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-600"
        >
          {question}
          <Icon
            name="lucide:chevron-down"
            className={cn("size-5 transition-transform", open && "rotate-180")}
          />
        </button>
      </h3>
      <div
        id={answerId}
        hidden={!open}
        className="whitespace-pre-line px-4 pb-4 text-slate-700 dark:text-slate-300"
      >
        {answer}
      </div>
    </li>
  );
}
