import { useQuery } from "convex/react";
import { lazy, Suspense } from "react";
import { Link } from "react-router-dom";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { StreamGroups } from "@/components/streams/stream-groups";
import { StreamStatusProvider } from "@/components/streams/stream-status-provider";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useNow } from "@/lib/use-now";
import { useViewerTimeZone } from "@/lib/viewer-time-zone";
import { api } from "@convex/_generated/api";
import { mayRunShops } from "@convex/lib/lifecycle";
import { attentionItems } from "./attention";
import { AttentionList } from "./attention-list";
import { ShopsOverview } from "./shops-overview";

/** The charts' library loads with this section only, after the rest of the dashboard (decision 089). */
const InsightsSection = lazy(async () => ({
  default: (await import("@/components/insights/insights-section")).InsightsSection,
}));

/** Ended shows listed here; the streams page has them all. */
const ENDED_ON_OVERVIEW = 5;

/** `/dashboard`: the seller's shops, what needs attention, and their streams with one-click status controls. */
export function DashboardPage() {
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.liveShops.listMyShops, {});
  const streamsByShop = useQuery(api.streams.listMyStreams, {});
  const now = useNow();
  const viewerZone = useViewerTimeZone();
  if (viewer === undefined || viewer === null || shops === undefined || streamsByShop === undefined) {
    return (
      <p className="mx-auto max-w-5xl px-4 py-12 text-slate-500 dark:text-slate-400">
        Loading your dashboard…
      </p>
    );
  }
  // A viewer who still owns shops sees them, hidden from the public, without controls (decision 025).
  const canRunShops = mayRunShops(viewer.role);
  const actor = { isOwner: canRunShops, isAdmin: viewer.role === "admin" };
  const streams = streamsByShop.flatMap((shop) => shop.streams);

  return (
    <DashboardShell
      title="Dashboard"
      description={`Signed in as ${viewer.name ?? viewer.email} · ${viewer.role}`}
      actions={
        shops.length > 0 &&
        canRunShops && (
          <Link
            to={paths.dashboard.newStream.getHref(shops.length === 1 ? shops[0]?._id : undefined)}
            className={buttonVariants({ size: "sm" })}
          >
            <Icon name="lucide:plus" className="size-4" />
            New stream
          </Link>
        )
      }
    >
      {shops.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 p-8 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <p>You have no live shop yet. Sellers run their shops and take their streams live from here.</p>
          <p className="mt-2">
            Open a shop, fill it in and submit it for verification; once it is approved, your shows can go
            live.
          </p>
          <Link to={paths.dashboard.newLiveShop.getHref()} className={buttonVariants({ className: "mt-4" })}>
            <Icon name="lucide:store" className="size-4" />
            Open a live shop
          </Link>
        </div>
      ) : (
        <div className="space-y-10">
          <AttentionList items={attentionItems(shops, streams, now, viewerZone)} />
          <ShopsOverview shops={shops} canRunShops={canRunShops} />
          <Suspense fallback={<p className="text-slate-500 dark:text-slate-400">Loading insights…</p>}>
            <InsightsSection shops={shops} />
          </Suspense>
          <section aria-labelledby="streams-heading">
            <div className="flex items-center justify-between gap-3">
              <h2 id="streams-heading" className="text-xl font-semibold">
                Your streams
              </h2>
              <Link
                to={paths.dashboard.streams.getHref()}
                className="text-sm font-medium text-primary-700 underline dark:text-primary-100"
              >
                All streams
              </Link>
            </div>
            {streams.length === 0 && (
              <p className="mt-3 text-slate-600 dark:text-slate-300">No streams yet.</p>
            )}
            <div className="mt-4">
              <StreamStatusProvider>
                <StreamGroups
                  shops={streamsByShop}
                  actor={actor}
                  endedLimit={ENDED_ON_OVERVIEW}
                  moreEnded={
                    <Link to={paths.dashboard.streams.getHref()} className="underline">
                      See every ended show
                    </Link>
                  }
                  actions={(stream) => (
                    <Link
                      to={paths.dashboard.stream.getHref(stream._id)}
                      className="text-sm font-medium text-secondary-700 underline dark:text-blue-300"
                      aria-label={`Open ${stream.streamTitle}`}
                    >
                      Open
                    </Link>
                  )}
                />
              </StreamStatusProvider>
            </div>
          </section>
        </div>
      )}
    </DashboardShell>
  );
}
