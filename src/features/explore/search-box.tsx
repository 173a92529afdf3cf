import { useEffect, useRef, useState } from "react";
import { Icon } from "@/components/ui/icon";
import { MAX_EXPLORE_QUERY_LENGTH } from "@convex/lib/explore";
import type { ExploreFilterUpdate } from "./use-explore-filter";

const DEBOUNCE_MS = 300;

/**
 * Search text, written to the URL's `q` once typing pauses (replacing the history entry, so Back does
 * not step through every letter). A `q` changed elsewhere (a chip, a link) shows in the box.
 */
export function SearchBox({
  q,
  label,
  onUpdate,
}: {
  q: string;
  label: string;
  onUpdate: (update: ExploreFilterUpdate, options: { replace: boolean }) => void;
}) {
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    if (text.trim() !== q) setText(q);
  }
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  function commit(value: string) {
    window.clearTimeout(timer.current);
    onUpdate((current) => ({ ...current, q: value }), { replace: true });
  }

  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        commit(text);
      }}
      className="relative"
    >
      <Icon
        name="lucide:search"
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500"
      />
      <input
        type="search"
        aria-label={label}
        placeholder={label}
        maxLength={MAX_EXPLORE_QUERY_LENGTH}
        value={text}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => commit(value), DEBOUNCE_MS);
        }}
        className="h-11 w-full rounded-full border border-slate-300 bg-white pl-9 pr-4 text-sm focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900"
      />
    </form>
  );
}
