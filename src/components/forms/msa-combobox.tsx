import { useId, useMemo, useState, type KeyboardEvent } from "react";
import type { MsaRecord } from "@convex/lib/data/msas";
import { matchMsas } from "./msa-match";

/**
 * The state and keys of a type-ahead over the metro areas (WAI-ARIA combobox): arrows move, Enter
 * chooses, Escape clears. `stopEscape` keeps Escape from also closing a menu around the input.
 */
export function useMsaCombobox({
  exclude,
  onChoose,
  stopEscape = false,
}: {
  exclude: readonly string[];
  onChoose: (msa: MsaRecord) => void;
  stopEscape?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const options = useMemo(() => matchMsas(query, { exclude }), [query, exclude]);
  const open = options.length > 0;

  function choose(msa: MsaRecord | undefined) {
    if (!msa) return;
    onChoose(msa);
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
    if (stopEscape) event.stopPropagation();
    event.preventDefault();
    move();
  }

  const inputProps = {
    id,
    role: "combobox",
    "aria-expanded": open,
    "aria-controls": listId,
    "aria-autocomplete": "list",
    "aria-activedescendant": open ? `${listId}-${active}` : undefined,
    autoComplete: "off",
    value: query,
    onChange: (event: { target: { value: string } }) => {
      setQuery(event.target.value);
      setActive(0);
    },
    onKeyDown,
  } as const;

  return { id, listId, options, open, active, choose, inputProps };
}

type MsaOptionsProps = {
  listId: string;
  label: string;
  options: readonly MsaRecord[];
  open: boolean;
  active: number;
  onChoose: (msa: MsaRecord) => void;
  className: string;
};

/** The list box under the input. */
export function MsaOptions({ listId, label, options, open, active, onChoose, className }: MsaOptionsProps) {
  return (
    <ul id={listId} role="listbox" aria-label={label} hidden={!open} className={className}>
      {options.map((msa, index) => (
        <li
          key={msa.cbsaCode}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === active}
          // Keeps focus in the input, so typing can go on after a choice.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChoose(msa)}
          className="cursor-pointer rounded-md px-3 py-2 text-sm aria-selected:bg-primary-50 dark:aria-selected:bg-primary-900/40"
        >
          {msa.name}
        </li>
      ))}
    </ul>
  );
}
