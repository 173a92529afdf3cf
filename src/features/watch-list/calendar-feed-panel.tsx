import { useAction, useMutation, useQuery } from "convex/react";
import { useRef, useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { useTransientNote } from "@/lib/use-transient-note";
import { useConfirm } from "@/components/ui/use-confirm";
import { convexSiteUrl } from "@/lib/convex-site";
import { errorMessage } from "@/lib/errors";
import { formatDate } from "@/lib/format-date";
import { api } from "@convex/_generated/api";

/** The feed's address, served by the HTTP action `GET /calendar/<token>.ics` (convex/http.ts). */
export function feedAddress(siteUrl: string, token: string): string {
  return `${siteUrl}/calendar/${token}.ics`;
}

/** The same address for "subscribe" links: calendar apps open `webcal://` and keep the calendar current. */
export function webcalAddress(address: string): string {
  return address.replace(/^https?:\/\//i, "webcal://");
}

type Pending = "turnOn" | "renew" | "turnOff" | null;

/**
 * "Calendar feed": a private iCalendar address of the person's saved upcoming shows, for calendar apps
 * to subscribe to. Off until they turn it on; a new address replaces the old one (which stops working);
 * turning it off stops it at once. The token is the only key, so the panel says so.
 */
export function CalendarFeedPanel() {
  const feed = useQuery(api.calendarFeed.myFeed, {});
  const turnOnFeed = useAction(api.calendarFeed.turnOn);
  const turnOffFeed = useMutation(api.calendarFeed.turnOff);
  const [pending, setPending] = useState<Pending>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  async function run(kind: Exclude<Pending, null>, work: () => Promise<unknown>) {
    setPending(kind);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
    }
  }

  const turnOn = (kind: "turnOn" | "renew") =>
    run(kind, () => turnOnFeed({ appOrigin: window.location.origin }));

  async function renew() {
    const yes = await confirm({
      title: "Get a new feed address?",
      description:
        "The current address stops working at once. Calendar apps subscribed to it stop updating until you subscribe to the new one.",
      confirmLabel: "Get a new address",
    });
    if (yes) await turnOn("renew");
  }

  async function turnOff() {
    const yes = await confirm({
      title: "Turn off the calendar feed?",
      description:
        "The address stops working at once, and calendar apps subscribed to it stop getting your saved shows. You can turn the feed on again later; it gets a new address.",
      confirmLabel: "Turn off",
      destructive: true,
    });
    if (yes) await run("turnOff", () => turnOffFeed({}));
  }

  return (
    <section
      id="calendar-feed"
      aria-labelledby="calendar-feed-heading"
      className="scroll-mt-24 rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
    >
      <h2 id="calendar-feed-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
        <Icon name="lucide:calendar-sync" className="size-5 text-primary-700 dark:text-primary-100" />
        Calendar feed
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        A private calendar address with the shows you saved that are coming up or live. Subscribe to it once
        in Google Calendar, Apple Calendar or Outlook and it keeps up as you save and remove shows and sellers
        change their times (each app checks for changes on its own schedule).
      </p>
      <div className="mt-4 space-y-4">
        {feed === undefined || feed === null ? (
          <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Loading your calendar feed…
          </p>
        ) : feed.token === null ? (
          <Button disabled={pending !== null} onClick={() => void turnOn("turnOn")}>
            <Icon name="lucide:rss" className="size-4" />
            {pending === "turnOn" ? "Turning on…" : "Turn on calendar feed"}
          </Button>
        ) : (
          <FeedAddress
            // A new address starts afresh: an old "Copied" would be about the previous one.
            key={feed.token}
            address={feedAddress(convexSiteUrl(), feed.token)}
            createdAt={feed.createdAt}
            pending={pending}
            onRenew={() => void renew()}
            onTurnOff={() => void turnOff()}
          />
        )}
        <FormAlert message={error} />
      </div>
      {confirmDialog}
    </section>
  );
}

type FeedAddressProps = {
  address: string;
  createdAt: number | null;
  pending: Pending;
  onRenew: () => void;
  onTurnOff: () => void;
};

/** The feed while on: its address to copy or subscribe to, the warning, and the ways to change it. */
function FeedAddress({ address, createdAt, pending, onRenew, onTurnOff }: FeedAddressProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyNote, setCopyNote] = useTransientNote();

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopyNote("Copied");
    } catch {
      // No clipboard (an insecure page, a refused permission): select it for the person to copy.
      inputRef.current?.focus();
      inputRef.current?.select();
      setCopyNote("Copying is not available here: the address is selected, press Ctrl+C (⌘C on a Mac).");
    }
  }

  return (
    <>
      <div>
        <label htmlFor="calendar-feed-address" className="block text-sm font-medium">
          Your feed address
        </label>
        <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
          <input
            ref={inputRef}
            id="calendar-feed-address"
            readOnly
            value={address}
            onFocus={(event) => event.currentTarget.select()}
            aria-describedby="calendar-feed-warning"
            className="h-10 min-w-0 flex-1 rounded-xl border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
          <Button
            variant="outline"
            className="shrink-0"
            aria-label="Copy the feed address"
            onClick={() => void copy()}
          >
            <Icon name="lucide:copy" className="size-4" />
            Copy
          </Button>
        </div>
        <p
          role="status"
          className="mt-1.5 min-h-5 text-sm font-medium text-primary-700 dark:text-primary-100"
        >
          {copyNote}
        </p>
        {createdAt !== null && (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Address made on {formatDate(createdAt)}.
          </p>
        )}
      </div>
      <p
        id="calendar-feed-warning"
        className="flex gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <Icon name="lucide:triangle-alert" className="mt-0.5 size-4 shrink-0" />
        <span>
          Keep this address private: anyone who has it can see the shows you saved. If it reached someone it
          should not have, get a new address.
        </span>
      </p>
      <div className="flex flex-wrap gap-3">
        {/* webcal:// is not a web page (ExternalLink allows http(s) only): calendar apps open it. */}
        <a href={webcalAddress(address)} className={buttonVariants()}>
          <Icon name="lucide:calendar-plus" className="size-4" />
          Subscribe in your calendar app
        </a>
        <Button variant="outline" disabled={pending !== null} onClick={onRenew}>
          <Icon name="lucide:refresh-cw" className="size-4" />
          {pending === "renew" ? "Getting a new address…" : "Get a new address"}
        </Button>
        <Button variant="ghost" disabled={pending !== null} onClick={onTurnOff}>
          <Icon name="lucide:power-off" className="size-4" />
          {pending === "turnOff" ? "Turning off…" : "Turn off"}
        </Button>
      </div>
    </>
  );
}
