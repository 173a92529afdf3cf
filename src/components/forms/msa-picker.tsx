import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { Icon } from "@/components/ui/icon";
import { MSAS, type MsaRecord } from "@convex/lib/data/msas";
import { controlClass } from "./field";

const MSA_BY_CODE = new Map(MSAS.map((msa) => [msa.cbsaCode, msa]));
const MAX_OPTIONS = 8;

/** Metro areas whose name holds every word typed, e.g. "austin tx". */
export function matchMsas(query: string, exclude: readonly string[]): MsaRecord[] {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  return MSAS.filter(
    (msa) => !exclude.includes(msa.cbsaCode) && words.every((word) => msa.name.toLowerCase().includes(word)),
  ).slice(0, MAX_OPTIONS);
}

type MsaPickerProps = {
  label: string;
  name: string;
  value: string[];
  onChange: (cbsaCodes: string[]) => void;
  /** How many may be chosen; the input is disabled once they are. */
  max: number;
  error?: string;
};

/** Type-ahead over the 393 metro areas (WAI-ARIA combobox with a list box); chosen ones show as chips. */
export function MsaPicker({ label, name, value, onChange, max, error }: MsaPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const full = value.length >= max;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const options = useMemo(() => matchMsas(query, value), [query, value]);
  const open = options.length > 0;

  function choose(msa: MsaRecord | undefined) {
    if (!msa) return;
    onChange([...value, msa.cbsaCode]);
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
    event.preventDefault();
    move();
  }

  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          autoComplete="off"
          disabled={full}
          placeholder={full ? `${max} chosen, the most allowed` : "Type a city, like Austin"}
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
          aria-label={label}
          hidden={!open}
          className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          {options.map((msa, index) => (
            <li
              key={msa.cbsaCode}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Keeps focus in the input, so typing can go on after a choice.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(msa)}
              className="cursor-pointer rounded-md px-3 py-2 text-sm aria-selected:bg-primary-50 dark:aria-selected:bg-primary-900/40"
            >
              {msa.name}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate-500 dark:text-slate-400">
        Up to {max}; type part of a name and pick from the list.
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {value.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={`${label}: chosen`}>
          {value.map((code) => {
            const msaName = MSA_BY_CODE.get(code)?.name ?? code;
            return (
              <li
                key={code}
                className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 text-sm dark:bg-slate-800"
              >
                {msaName}
                <button
                  type="button"
                  aria-label={`Remove ${msaName}`}
                  onClick={() => onChange(value.filter((other) => other !== code))}
                  className="rounded-full p-1 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-700"
                >
                  <Icon name="lucide:x" className="size-3.5" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
