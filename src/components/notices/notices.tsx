import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";

/**
 * A short message in the corner of every page: a go-live alert, or the result of an action finished
 * after signing in. Shown in a polite live region, so screen readers announce it without moving focus.
 */
export type Notice = {
  /** Stable per event: showing the same id again replaces the notice instead of adding a second. */
  id: string;
  title: string;
  body?: string;
  href?: string;
  linkLabel?: string;
  /** "live": a go-live alert, kept until dismissed. "info": dismissed by itself after a while. */
  tone?: "live" | "info";
};

type NoticesApi = { show: (notice: Notice) => void; dismiss: (id: string) => void };

const NoticesContext = createContext<NoticesApi | null>(null);

/** Notices on screen at once; an older one gives way to a newer one. */
export const MAX_NOTICES = 3;
/** How long an "info" notice stays, unless the pointer or focus is on the notices. */
export const INFO_NOTICE_MS = 8000;

/** Shows notices pushed with `useNotices().show`. Mounted once, around the whole app. */
export function NoticesProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: string) => setNotices((all) => all.filter((n) => n.id !== id)), []);
  const show = useCallback(
    (notice: Notice) =>
      setNotices((all) => [...all.filter((n) => n.id !== notice.id), notice].slice(-MAX_NOTICES)),
    [],
  );
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <NoticesContext value={api}>
      {children}
      <NoticeRegion notices={notices} dismiss={dismiss} />
    </NoticesContext>
  );
}

export function useNotices(): NoticesApi {
  const api = useContext(NoticesContext);
  if (!api) throw new Error("useNotices needs a NoticesProvider above it.");
  return api;
}

function NoticeRegion({ notices, dismiss }: { notices: Notice[]; dismiss: (id: string) => void }) {
  // While the person points at or is inside the notices, none leaves by itself.
  const [held, setHeld] = useState(false);
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-3 bottom-3 z-50 flex flex-col items-end gap-2 sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-96"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
    >
      {/* The live region exists before any notice, so the first one is announced too. */}
      <div role="status" aria-live="polite" className="flex w-full flex-col gap-2">
        {notices.map((notice) => (
          <NoticeCard key={notice.id} notice={notice} held={held} dismiss={dismiss} />
        ))}
      </div>
    </section>
  );
}

type NoticeCardProps = { notice: Notice; held: boolean; dismiss: (id: string) => void };

function NoticeCard({ notice, held, dismiss }: NoticeCardProps) {
  const live = notice.tone === "live";
  const { id } = notice;
  useEffect(() => {
    if (live || held) return;
    const timer = window.setTimeout(() => dismiss(id), INFO_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [live, held, id, dismiss]);
  const onDismiss = () => dismiss(id);
  return (
    <div className="pointer-events-auto flex w-full items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-900">
      <span
        className={
          live
            ? "mt-0.5 grid size-8 shrink-0 place-items-center rounded-full bg-red-600 text-white"
            : "mt-0.5 grid size-8 shrink-0 place-items-center rounded-full bg-primary-100 text-primary-800 dark:bg-primary-900/50 dark:text-primary-100"
        }
        aria-hidden
      >
        <Icon name={live ? "lucide:radio" : "lucide:check"} className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{notice.title}</p>
        {notice.body && <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{notice.body}</p>}
        {notice.href && (
          <Link
            to={notice.href}
            onClick={onDismiss}
            className="mt-2 inline-block text-sm font-semibold text-primary-700 underline-offset-2 hover:underline dark:text-primary-100"
          >
            {notice.linkLabel ?? "Open"}
          </Link>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="-m-1 grid size-8 shrink-0 place-items-center rounded-full text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-800"
        aria-label={`Dismiss: ${notice.title}`}
      >
        <Icon name="lucide:x" className="size-4" />
      </button>
    </div>
  );
}
