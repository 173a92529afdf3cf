import { useLayoutEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";

type FieldsetListProps<T> = {
  items: readonly T[];
  onChange: (items: T[]) => void;
  /** A row's stable key (React's, and where focus goes after an add, move or remove). */
  keyOf: (item: T) => string;
  /** A row as a sentence names it, "product 2", "TikTok Shop link": its group's name and its buttons'. */
  nameOf: (item: T, index: number) => string;
  /** A row's fields; `edit` changes that row only. */
  renderItem: (item: T, index: number, edit: (patch: Partial<T>) => void) => ReactNode;
  /** The row "Add" appends. */
  newItem: () => T;
  addLabel: string;
  /** False when no row can be added for a reason of the list's own (every platform used). */
  canAdd?: boolean;
  /** At most this many rows: "Add" is off at the limit, so the form never submits more. */
  max?: number;
  /** Up and down buttons on each row, where the order is what buyers see. */
  reorder?: boolean;
  /** Shown when there are no rows. */
  empty?: string;
  /** Said above the rows (what the order means, what a priority is). */
  hint?: string;
  /** The list's own message (too many, duplicates), from the shared schema. */
  error?: string;
  /** Show each row's name as its legend; else the name is for screen readers only. */
  legend?: boolean;
  /** Each row's layout (a grid of its fields); its buttons come last. */
  rowClassName?: string;
  /** Where the row's buttons sit in that layout. */
  actionsClassName?: string;
};

/** What gets focus once React has drawn the change: a row by key, or the "Add" button. */
type FocusTarget = { key: string; control: "first" | "up" | "down" } | { key: null };

const CONTROLS = "input, select, textarea, button";

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * A list of fieldsets with add, remove and (optionally) move up and down: products, categories,
 * questions, platform links, images. Focus follows the change, so a keyboard or screen-reader user is
 * never left on a button that is gone: an added row's first field; after a remove, the row that took
 * its place (the one before it if it was last, else "Add"); after a move, the same button on the moved
 * row, or the other one once the row reaches an end.
 */
export function FieldsetList<T>({
  items,
  onChange,
  keyOf,
  nameOf,
  renderItem,
  newItem,
  addLabel,
  canAdd = true,
  max,
  reorder = false,
  empty,
  hint,
  error,
  legend = false,
  rowClassName,
  actionsClassName,
}: FieldsetListProps<T>) {
  const rows = useRef(new Map<string, HTMLFieldSetElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<FocusTarget | null>(null);

  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const row = target.key === null ? null : rows.current.get(target.key);
    if (!row || target.key === null) {
      addButton.current?.focus();
      return;
    }
    const pick = (control: "first" | "up" | "down") =>
      control === "first"
        ? row.querySelector<HTMLElement>(CONTROLS)
        : row.querySelector<HTMLButtonElement>(`button[data-move="${control}"]:not(:disabled)`);
    const other = target.control === "up" ? "down" : "up";
    (pick(target.control) ?? (target.control === "first" ? null : pick(other)))?.focus();
  }, [items]);

  const change = (next: T[], focus: FocusTarget) => {
    focusNext.current = focus;
    onChange(next);
  };
  const remove = (index: number) => {
    const next = items.filter((_, i) => i !== index);
    const neighbour = next[index] ?? next[index - 1];
    change(next, neighbour === undefined ? { key: null } : { key: keyOf(neighbour), control: "first" });
  };
  const move = (index: number, direction: "up" | "down") => {
    const item = items[index];
    if (item === undefined) return;
    change(moved(items, index, direction === "up" ? index - 1 : index + 1), {
      key: keyOf(item),
      control: direction,
    });
  };
  const add = () => {
    const item = newItem();
    change([...items, item], { key: keyOf(item), control: "first" });
  };
  const full = !canAdd || (max !== undefined && items.length >= max);

  return (
    <div className="space-y-3">
      {hint && <p className="text-sm text-slate-500 dark:text-slate-400">{hint}</p>}
      {items.length === 0 && empty && <p className="text-sm text-slate-500 dark:text-slate-400">{empty}</p>}
      {items.map((item, index) => {
        const key = keyOf(item);
        const name = nameOf(item, index);
        const edit = (patch: Partial<T>) =>
          onChange(items.map((other, i) => (i === index ? { ...other, ...patch } : other)));
        return (
          <fieldset
            key={key}
            ref={(element) => {
              if (element) rows.current.set(key, element);
              else rows.current.delete(key);
            }}
            className={cn(
              "rounded-xl border border-slate-200 p-3 sm:p-4 dark:border-slate-800",
              rowClassName,
            )}
          >
            <legend className={legend ? "px-1 text-sm font-semibold" : "sr-only"}>{capitalized(name)}</legend>
            {renderItem(item, index, edit)}
            <div className={cn("flex flex-wrap gap-2", actionsClassName)}>
              {reorder && (
                <>
                  <Button
                    variant="ghost"
                    size="sm"
                    data-move="up"
                    aria-label={`Move ${name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, "up")}
                  >
                    <Icon name="lucide:arrow-up" className="size-4" />
                    Up
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    data-move="down"
                    aria-label={`Move ${name} down`}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, "down")}
                  >
                    <Icon name="lucide:arrow-down" className="size-4" />
                    Down
                  </Button>
                </>
              )}
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700 dark:text-red-300"
                aria-label={`Remove ${name}`}
                onClick={() => remove(index)}
              >
                <Icon name="lucide:trash-2" className="size-4" />
                Remove
              </Button>
            </div>
          </fieldset>
        );
      })}
      {error && <p className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      <Button ref={addButton} variant="outline" size="sm" disabled={full} onClick={add}>
        <Icon name="lucide:plus" className="size-4" />
        {addLabel}
      </Button>
    </div>
  );
}
