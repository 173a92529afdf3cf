import { ExternalLink } from "@/components/ui/external-link";
import { Icon } from "@/components/ui/icon";

/** A file the browser can play itself: .mp4, .webm or an HLS playlist (.m3u8), query string allowed. */
export function isDirectVideoUrl(url: string): boolean {
  try {
    const { pathname } = new URL(url, "http://localhost");
    return /\.(mp4|webm|m3u8)$/i.test(pathname);
  } catch {
    return false;
  }
}

type VideoOrLinkProps = {
  url: string;
  /** What the video is, for its label: "Trailer", "Replay", "Live stream". */
  label: string;
  /** Where a page-hosted video lives, for the link out: "Watch on Whatnot". */
  linkLabel: string;
  poster?: string;
};

/** An HTML5 player for direct video files; anything else (a platform page) is a clear link out. */
export function VideoOrLink({ url, label, linkLabel, poster }: VideoOrLinkProps) {
  if (isDirectVideoUrl(url)) {
    return (
      <video
        controls
        preload="metadata"
        src={url}
        poster={poster}
        aria-label={label}
        className="aspect-video w-full rounded-2xl bg-black"
      >
        <ExternalLink href={url} external>
          {linkLabel}
        </ExternalLink>
      </video>
    );
  }
  return (
    <ExternalLink
      href={url}
      external
      className="inline-flex items-center gap-2 rounded-full bg-primary-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-primary-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
    >
      <Icon name="lucide:play" className="size-4" />
      {linkLabel}
      <Icon name="lucide:external-link" className="size-4" />
      <span className="sr-only">(opens in a new tab)</span>
    </ExternalLink>
  );
}

/** A page's "Trailer" section (a shop's or a stream's): the heading, then the player or the link out. */
export function TrailerSection({ url, label }: { url: string; label: string }) {
  return (
    <section aria-labelledby="trailer-heading">
      <h2 id="trailer-heading" className="text-xl font-semibold tracking-tight">
        Trailer
      </h2>
      <div className="mt-3">
        <VideoOrLink url={url} label={label} linkLabel="Watch the trailer" />
      </div>
    </section>
  );
}
