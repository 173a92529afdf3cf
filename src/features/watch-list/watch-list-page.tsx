import { useConvexAuth, useQuery } from "convex/react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button-variants";
import { CardSkeleton } from "@/components/ui/card-skeleton";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useDocumentTitle } from "@/lib/use-document-title";
import { api } from "@convex/_generated/api";
import { CalendarFeedPanel } from "./calendar-feed-panel";
import { UnavailableNotice } from "./unavailable-notice";
import { ComingUpSection, EndedSection, FollowedShopsSection, LiveNowSection } from "./watch-list-sections";
import type { WatchList } from "./watch-list-types";

/**
 * /watch-list (docs/product.md#watch-list): what is live now from saved shows and followed shops, saved
 * shows coming up with countdowns and calendar files, followed shops with their next show, saved shows
 * that ended with their replays, and the private calendar feed. Every part is a Convex subscription,
 * so it changes as shows go live or end. Signed out, the page asks to sign in and comes back here.
 */
export function WatchListPage() {
  useDocumentTitle("Watch list");
  const { isLoading: authLoading, isAuthenticated } = useConvexAuth();
  const list = useQuery(api.watchList.myWatchList, {});

  if (!authLoading && !isAuthenticated) {
    return (
      <PageFrame>
        <SignInPrompt />
      </PageFrame>
    );
  }
  // Null while signed in is the moment the account is being set up (or signing out): keep waiting.
  if (authLoading || !list) {
    return (
      <PageFrame>
        <WatchListSkeleton />
      </PageFrame>
    );
  }
  return (
    <PageFrame summary={<LimitsSummary list={list} />}>
      <UnavailableNotice unavailable={list.unavailable} />
      <LiveNowSection streams={list.live} />
      <ComingUpSection streams={list.upcoming} />
      <FollowedShopsSection shops={list.shops} />
      <EndedSection streams={list.ended} />
      <CalendarFeedPanel />
    </PageFrame>
  );
}

function PageFrame({ summary, children }: { summary?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <header className="max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight sm:text-4xl">
          <Icon name="lucide:bookmark" className="size-8 text-primary-700 dark:text-primary-100" />
          Your watch list
        </h1>
        {summary}
      </header>
      <div className="mt-8 space-y-14">{children}</div>
    </div>
  );
}

/** "3 of 100 shows saved · 2 of 100 shops followed", and what to do once a limit is reached. */
function LimitsSummary({ list }: { list: WatchList }) {
  const { counts, limits } = list;
  const showsFull = counts.savedStreams >= limits.savedStreams;
  const shopsFull = counts.followedShops >= limits.followedShops;
  return (
    <>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        {counts.savedStreams} of {limits.savedStreams} shows saved · {counts.followedShops} of{" "}
        {limits.followedShops} shops followed
      </p>
      {(showsFull || shopsFull) && (
        <ul className="mt-3 space-y-1 text-sm font-medium text-amber-800 dark:text-amber-200">
          {showsFull && (
            <li className="flex items-start gap-2">
              <Icon name="lucide:circle-alert" className="mt-0.5 size-4 shrink-0" />
              Your watch list is full: remove a show you no longer need to save another.
            </li>
          )}
          {shopsFull && (
            <li className="flex items-start gap-2">
              <Icon name="lucide:circle-alert" className="mt-0.5 size-4 shrink-0" />
              You follow the most shops you can: unfollow one to follow another.
            </li>
          )}
        </ul>
      )}
    </>
  );
}

/** Signed out: what the watch list is for, and the way in (sign-in brings the person back here). */
function SignInPrompt() {
  return (
    <section
      aria-labelledby="sign-in-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-10 dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="mx-auto grid size-14 place-items-center rounded-full bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
        <Icon name="lucide:bookmark" className="size-7" />
      </span>
      <h2 id="sign-in-heading" className="mt-4 text-2xl font-semibold tracking-tight">
        Sign in to keep a watch list
      </h2>
      <p className="mx-auto mt-2 max-w-xl text-slate-600 dark:text-slate-300">
        Save shows and follow your favorite local shops: see who is live at a glance, count down to the next
        show, add shows to your calendar, catch the replays, and get a notice when they go live while
        LiveLocal is open.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={paths.signIn.getHref(paths.watchList.getHref())} className={buttonVariants({ size: "lg" })}>
          <Icon name="lucide:log-in" className="size-5" />
          Sign in
        </Link>
        <Link
          to={paths.explore.streams.getHref()}
          className={buttonVariants({ variant: "outline", size: "lg" })}
        >
          <Icon name="lucide:compass" className="size-5" />
          Explore shows
        </Link>
      </div>
    </section>
  );
}

/** Card-shaped placeholders for the first sections while the list loads. */
function WatchListSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading your watch list" className="space-y-12">
      <div className="h-5 w-72 max-w-full animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
      {[0, 1].map((section) => (
        <div key={section}>
          <div className="h-7 w-40 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
          <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((key) => (
              <CardSkeleton key={key} />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
