import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import type { Notice } from "./shop-moderation-actions";

/** The console's lists: a page is this many rows, and "Load more" adds as many again. */
export const ADMIN_PAGE_SIZE = 25;

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
