import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { controlClass } from "@/components/forms/field";
import { matchMsas } from "@/components/forms/msa-picker";
import type { MsaRecord } from "@convex/lib/data/msas";

/** A type-ahead over all 393 metro areas (WAI-ARIA combobox); choosing one calls `onChoose`. */
export function MsaSearch({
  selected,
  onChoose,
}: {
  selected: readonly string[];
  onChoose: (cbsaCode: string) => void;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const options = useMemo(() => matchMsas(query, selected), [query, selected]);
  const open = options.length > 0;

  function choose(msa: MsaRecord | undefined) {
    if (!msa) return;
    onChoose(msa.cbsaCode);
    setQuery("");
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((index) => (index + 1) % options.length),
      ArrowUp: () => setActive((index) => (index - 1 + options.length) % options.length),
      Enter: () => choose(options[active]),
      Escape: () => setQuery(""),
    };
    const move = open ? moves[event.key] : undefined;
    if (!move) return;
    // Escape clears the list here rather than closing the filter menu around it.
    event.stopPropagation();
    event.preventDefault();
    move();
  }

  return (
    <div className="relative">
      <label htmlFor={id} className="text-sm font-medium">
        Find a metro area
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder="Type a city, like Austin"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className={controlClass}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Metro areas"
        hidden={!open}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-800 dark:bg-slate-900"
      >
        {options.map((msa, index) => (
          <li
            key={msa.cbsaCode}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(msa)}
            className="cursor-pointer rounded-md px-3 py-2 text-sm aria-selected:bg-primary-50 dark:aria-selected:bg-primary-900/40"
          >
            {msa.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
