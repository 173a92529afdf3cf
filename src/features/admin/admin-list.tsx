import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/use-confirm";
import { errorMessage } from "@/lib/errors";
import { FormAlert } from "@/components/forms/form-alert";
import type { Notice } from "./shop-moderation-actions";

/** The console's lists: a page is this many rows, and "Load more" adds as many again. */
export const ADMIN_PAGE_SIZE = 25;

/** A search waits for a pause in typing, so each keystroke does not start the list over. */
export const SEARCH_DELAY_MS = 250;

/** "1 shop", "3 shops". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

type PaginationStatus = "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted";

/** A list's first page loading, announced. */
export function ListLoading({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-4 text-slate-500 dark:text-slate-400">
      {children}
    </p>
  );
}

/** A list with nothing in it, in words. */
export function ListEmpty({ children }: { children: ReactNode }) {
  return (
    <p className="mt-4 rounded-2xl border border-dashed border-slate-300 p-6 text-slate-600 dark:border-slate-700 dark:text-slate-300">
      {children}
    </p>
  );
}

/** "Load more" while the list has more pages. */
export function LoadMore({ status, onLoadMore }: { status: PaginationStatus; onLoadMore: () => void }) {
  if (status !== "CanLoadMore" && status !== "LoadingMore") return null;
  return (
    <Button variant="outline" className="mt-4" disabled={status === "LoadingMore"} onClick={onLoadMore}>
      {status === "LoadingMore" ? "Loading…" : "Load more"}
    </Button>
  );
}

/** Where the outcome of an action is said; kept mounted so screen readers hear each new message. */
export function NoticeArea({ notice }: { notice: Notice | null }) {
  return (
    <div className="mb-4 empty:hidden">
      {notice && <FormAlert tone={notice.tone} message={notice.text} />}
    </div>
  );
}

const searchClass =
  "mt-1 block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900";

/** A queue's search box: what a person types, looked up once they pause (the page debounces). */
export function AdminSearch({
  label,
  value,
  onChange,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="min-w-0 basis-full sm:max-w-sm sm:flex-1 sm:basis-auto">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        maxLength={100}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={searchClass}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The rows chosen for a bulk action, by id; ids no longer listed drop out. */
export function useSelection<Id extends string>(listed: readonly Id[]) {
  const [chosen, setChosen] = useState<ReadonlySet<Id>>(new Set());
  const selected = listed.filter((id) => chosen.has(id));
  return {
    selected,
    isSelected: (id: Id) => chosen.has(id),
    toggle: (id: Id, on: boolean) =>
      setChosen((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    setAll: (on: boolean) => setChosen(new Set(on ? listed : [])),
    clear: () => setChosen(new Set()),
  };
}

/**
 * "Select all" and the bulk action's button for a queue, said in counts: shown while anything can be
 * chosen. The action asks first and reports what it did (the page's notice).
 */
export function BulkBar({
  label,
  count,
  total,
  actionLabel,
  pending,
  onSelectAll,
  onAct,
}: {
  /** What one row is: "shop", "data export request". */
  label: string;
  count: number;
  total: number;
  actionLabel: string;
  pending: boolean;
  onSelectAll: (on: boolean) => void;
  onAct: () => void;
}) {
  if (total === 0) return null;
  return (
    <div
      role="group"
      aria-label={`Choose ${label}s`}
      className="mt-4 flex flex-wrap items-center gap-3 rounded-xl bg-slate-50 px-4 py-2 text-sm dark:bg-slate-900"
    >
      <label className="inline-flex items-center gap-2">
        <input
          type="checkbox"
          checked={count === total}
          ref={(input) => {
            if (input) input.indeterminate = count > 0 && count < total;
          }}
          onChange={(event) => onSelectAll(event.target.checked)}
          className="size-4 accent-primary-700"
        />
        Select all {plural(total, label)}
      </label>
      <span className="text-slate-600 dark:text-slate-300">{count} selected</span>
      <Button size="sm" className="ml-auto" disabled={count === 0 || pending} onClick={onAct}>
        {pending ? "Approving…" : actionLabel}
      </Button>
    </div>
  );
}

type BulkResult<Id> = { approved: Id[]; skipped: { id: Id; reason: string }[] };

/**
 * Approving several rows of a queue at once: the selection, "Select all" and the action's button
 * (`bar`), and the confirmation naming what is approved (`dialog`, render it once). The outcome is said
 * on the page: how many were approved, and each left out with why.
 */
export function useBulkApproval<Id extends string>({
  rows,
  rowNoun,
  noun,
  explanation,
  done,
  approve,
  onNotice,
}: {
  /** The rows that can be chosen, and what a person calls each. */
  rows: readonly { id: Id; name: string }[];
  /** One row, for "Select all 3 shops". */
  rowNoun: string;
  /** One approval, for "Approve 3 data exports?". */
  noun: string;
  /** What approving does, said before the names. */
  explanation: string;
  /** After the count of those approved: "approved and now active." */
  done: string;
  approve: (ids: Id[]) => Promise<BulkResult<Id>>;
  onNotice: (notice: Notice) => void;
}) {
  const [confirm, dialog] = useConfirm();
  const [pending, setPending] = useState(false);
  const selection = useSelection(rows.map((row) => row.id));

  async function approveSelected() {
    const chosen = rows.filter((row) => selection.isSelected(row.id));
    const count = plural(chosen.length, noun);
    const sure = await confirm({
      title: `Approve ${count}?`,
      description: (
        <>
          <p>{explanation}</p>
          <ul className="mt-2 list-disc pl-5 [overflow-wrap:anywhere]">
            {chosen.map((row) => (
              <li key={row.id}>{row.name}</li>
            ))}
          </ul>
        </>
      ),
      confirmLabel: `Approve ${count}`,
    });
    if (!sure) return;
    setPending(true);
    try {
      const { approved, skipped } = await approve(chosen.map((row) => row.id));
      selection.clear();
      const names = new Map(chosen.map((row) => [row.id, row.name]));
      const left = skipped.map(({ id, reason }) => `${names.get(id) ?? "One"}: ${reason}`);
      onNotice({
        tone: skipped.length > 0 ? "error" : "success",
        text: [`${plural(approved.length, noun)} ${done}`, ...left].join(" "),
      });
    } catch (caught) {
      onNotice({ tone: "error", text: errorMessage(caught) });
    } finally {
      setPending(false);
    }
  }

  const bar = (
    <BulkBar
      label={rowNoun}
      count={selection.selected.length}
      total={rows.length}
      actionLabel={`Approve selected (${selection.selected.length})`}
      pending={pending}
      onSelectAll={selection.setAll}
      onAct={() => void approveSelected()}
    />
  );
  return { selection, bar, dialog };
}
