import { useQuery } from "convex/react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { InvalidIdBoundary } from "@/components/errors/invalid-id-boundary";
import { FormAlert } from "@/components/forms/form-alert";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { PageLoading } from "@/components/layout/page-loading";
import { StreamStatusBadge } from "@/components/streams/stream-status-badge";
import { HiddenFromPublicTag } from "@/components/shops/shops-hidden-banner";
import { ModerationNote } from "@/components/streams/stream-row";
import { StreamStatusControls } from "@/components/streams/stream-status-controls";
import { StreamStatusProvider } from "@/components/streams/stream-status-provider";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { isStreamPagePublic, mayRunShops } from "@convex/lib/lifecycle";
import { ReplayUrlForm } from "./replay-url-form";
import { StreamActions } from "./stream-actions";
import { streamDraftFromDoc } from "./stream-draft";
import { StreamForm } from "./stream-form";

const NOTICES: Record<string, string> = {
  created: "Your stream is saved as a draft.",
  duplicated: "This is a copy, saved as a draft without times. Set its times and schedule it.",
};

function StreamNotFound() {
  return (
    <DashboardShell title="Stream not found">
      <p className="text-slate-600 dark:text-slate-300">
        This stream does not exist, or it is not in one of your shops.{" "}
        <Link
          to={paths.dashboard.streams.getHref()}
          className="font-medium text-primary-700 underline dark:text-primary-100"
        >
          See your streams
        </Link>
        .
      </p>
    </DashboardShell>
  );
}

/** `/dashboard/streams/:streamId`: the stream's form and lifecycle; an ended one takes only its replay link. */
export function EditStreamPage() {
  const { streamId = "" } = useParams();
  return (
    <InvalidIdBoundary key={streamId} fallback={<StreamNotFound />}>
      <EditStream streamId={streamId} />
    </InvalidIdBoundary>
  );
}

function EditStream({ streamId }: { streamId: string }) {
  const navigate = useNavigate();
  const state = useLocation().state as Record<string, boolean> | null;
  const notice = Object.keys(NOTICES).find((key) => state?.[key]);
  const viewer = useQuery(api.users.viewer, {});
  const stream = useQuery(api.streams.getMyStream, { streamId: streamId as Id<"streams"> });
  const shop = useQuery(api.liveShops.getMyShop, stream ? { liveShopId: stream.liveShopId } : "skip");

  if (stream === undefined || viewer === undefined) return <PageLoading label="Loading the stream…" />;
  if (stream === null || viewer === null) return <StreamNotFound />;

  const status = stream.streamStatus;
  // Only its owner sees a stream here without being an admin: as a viewer, they change nothing (decision 025).
  const readOnly = !mayRunShops(viewer.role);
  const statusWords = readOnly
    ? "Only sellers can change a stream. This one is kept as it was, hidden from the public."
    : status === "CANCELLED"
      ? "This stream was cancelled. Duplicate it to plan it again."
      : status === "ENDED"
        ? "This show has ended."
        : "Change the stream's status here or from the dashboard.";
  return (
    <StreamStatusProvider>
      <DashboardShell
        title={stream.streamTitle}
        description={
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <StreamStatusBadge status={status} />
            {shop &&
              (shop.ownerRestricted || shop.ownerIsViewer) &&
              isStreamPagePublic(status, shop.status) && <HiddenFromPublicTag />}
            <Link to={paths.dashboard.liveShop.getHref(stream.liveShopId)} className="underline">
              {stream.liveShopName}
            </Link>
          </p>
        }
        actions={
          !readOnly && (
            <StreamActions
              stream={stream}
              showEdit={false}
              afterDelete={() =>
                void navigate(paths.dashboard.streams.getHref(stream.liveShopId), { replace: true })
              }
            />
          )
        }
      >
        {notice && status === "CREATED" && (
          <div className="mb-6">
            <FormAlert tone="success" message={NOTICES[notice] ?? null} />
          </div>
        )}
        <section
          aria-label="Stream status"
          className="mb-6 flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:bg-slate-900"
        >
          <div>
            <p className="text-sm text-slate-700 dark:text-slate-200">{statusWords}</p>
            {stream.statusReason && <ModerationNote stream={stream} reason={stream.statusReason} />}
          </div>
          <StreamStatusControls
            stream={stream}
            actor={{
              isOwner: !readOnly && (shop ? shop.userId === viewer._id : true),
              isAdmin: viewer.role === "admin",
            }}
            shopStatus={shop?.status}
          />
        </section>
        {status === "ENDED" && !readOnly && (
          <ReplayUrlForm key={stream._id} streamId={stream._id} replayVideoUrl={stream.replayVideoUrl} />
        )}
        {status !== "ENDED" && status !== "CANCELLED" && !readOnly && (
          <StreamForm
            key={stream._id}
            initial={streamDraftFromDoc(stream)}
            timezone={stream.timezone}
            target={{ streamId: stream._id }}
          />
        )}
      </DashboardShell>
    </StreamStatusProvider>
  );
}
