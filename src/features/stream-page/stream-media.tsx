import { isDirectVideoUrl, TrailerSection, VideoOrLink } from "@/components/media/video-or-link";
import { PLATFORMS } from "@convex/lib/constants";
import type { PublicStream } from "./stream-types";

/** The platform to name in "Watch on …": the one whose stream URL this is, else the first linked. */
function platformLabel(stream: PublicStream, url: string): string {
  const match = stream.platforms.find((p) => p.platformStreamUrl === url) ?? stream.platforms[0];
  return match ? PLATFORMS[match.platformType].label : "the seller's site";
}

/** Live or upcoming: the show's video; ended: the replay; and the trailer while there is no show to see. */
export function StreamMedia({ stream }: { stream: PublicStream }) {
  const ended = stream.streamStatus === "ENDED";
  const main = ended
    ? stream.replayVideoUrl
    : stream.streamStatus === "CANCELLED"
      ? undefined
      : stream.streamVideoUrl;
  const poster = stream.streamImageUrls[0];
  return (
    <>
      {poster && !(main && isDirectVideoUrl(main)) && (
        <img src={poster} alt="" className="aspect-video w-full rounded-2xl object-cover" />
      )}
      {main && (
        <section aria-labelledby="video-heading">
          <h2 id="video-heading" className="sr-only">
            {ended ? "Replay" : "Live video"}
          </h2>
          <VideoOrLink
            url={main}
            label={ended ? "Replay" : "Live video"}
            linkLabel={`${ended ? "Watch the replay" : "Watch"} on ${platformLabel(stream, main)}`}
            poster={poster}
          />
        </section>
      )}
      {ended && !stream.replayVideoUrl && (
        <p className="text-slate-600 dark:text-slate-300">
          This show has ended. No replay has been posted yet.
        </p>
      )}
      {stream.streamTrailerUrl && <TrailerSection url={stream.streamTrailerUrl} label="Trailer" />}
    </>
  );
}
