import { memo, type ReactNode } from "react";
import { Link, useParams } from "react-router-dom";
import { NotFoundPage } from "@/components/errors/not-found-page";
import { JsonLdScript } from "@/components/json-ld-script";
import { PageLoading } from "@/components/layout/page-loading";
import { PlatformLinks } from "@/components/streams/platform-links";
import { StreamStatusBadge } from "@/components/streams/stream-status-badge";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useInsightsCounter } from "@/lib/insights-visit";
import { streamPageJsonLd } from "@/lib/json-ld";
import { streamPageMeta } from "@/lib/page-meta";
import { useSiteOrigin } from "@/lib/page-data";
import { usePageQuery } from "@/lib/page-query";
import { useDocumentMeta } from "@/lib/use-document-meta";
import { api } from "@convex/_generated/api";
import { StreamActions } from "./stream-actions";
import { StreamMedia } from "./stream-media";
import { StreamProducts } from "./stream-products";
import { StreamTimes } from "./stream-times";
import type { PublicStream } from "./stream-types";

/** `/stream/:streamId`: a show's page, live through the Convex query (its status badge follows it). */
export function StreamPage() {
  const { streamId = "" } = useParams();
  const stream = usePageQuery(api.streams.getPublicStream, { streamId });
  if (stream === undefined) return <PageLoading label="Loading the show…" />;
  if (stream === null) return <NotFoundPage />;
  return <StreamView stream={stream} />;
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="flex items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <Icon name="lucide:circle-alert" className="mt-0.5 size-5" />
      <span>{children}</span>
    </p>
  );
}

/** Memoised: the subscription's first answer, the same as the server's, draws nothing again (decision 040). */
const StreamView = memo(function StreamView({ stream }: { stream: PublicStream }) {
  const origin = useSiteOrigin();
  const count = useInsightsCounter({ streamId: stream._id });
  const pageUrl = new URL(paths.stream.getHref(stream._id), origin).href;
  const meta = streamPageMeta(stream);
  useDocumentMeta({ title: meta.title, description: meta.description, canonical: meta.path });
  const jsonLd = streamPageJsonLd(stream, origin);
  const labels = [
    ...stream.categories.map((c) => c.subcategoryLabel ?? c.label),
    ...stream.areas.map((a) => a.msaLabel),
  ];
  return (
    // On a phone: heading, then when and share, then the rest; on a desktop the aside spans both rows.
    <article className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_22rem] lg:grid-rows-[auto_1fr]">
      {jsonLd && <JsonLdScript data={jsonLd} />}
      <div className="grid min-w-0 content-start gap-6 lg:col-start-1 lg:row-start-1">
        {stream.streamStatus === "CANCELLED" && <Notice>This show was cancelled by the seller.</Notice>}
        {stream.shop.status === "maintenance" && (
          <Notice>{stream.shop.liveShopName} is temporarily closed.</Notice>
        )}
        {stream.streamStatus === "CREATED" && <Notice>Draft: only you and admins can see this page.</Notice>}
        <header>
          <StreamStatusBadge status={stream.streamStatus} />
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{stream.streamTitle}</h1>
          <Link
            to={paths.liveShop.getHref(stream.shop.slug)}
            className="mt-3 inline-flex items-center gap-2 font-medium text-primary-700 hover:underline dark:text-primary-100"
          >
            {stream.shop.logoUrl && (
              <img src={stream.shop.logoUrl} alt="" className="size-8 rounded-full object-cover" />
            )}
            {stream.shop.liveShopName}
          </Link>
        </header>
      </div>
      <aside className="grid min-w-0 content-start gap-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <section
          aria-labelledby="when-heading"
          className="grid gap-4 rounded-2xl border border-slate-200 p-5 dark:border-slate-800"
        >
          <h2 id="when-heading" className="text-lg font-semibold">
            When
          </h2>
          <StreamTimes stream={stream} />
          <StreamActions stream={stream} pageUrl={pageUrl} onCalendarAdd={() => count("calendar")} />
        </section>
        {stream.platforms.length > 0 && (
          <section aria-labelledby="platforms-heading">
            <h2 id="platforms-heading" className="text-lg font-semibold">
              Watch and buy on
            </h2>
            <PlatformLinks
              platforms={stream.platforms}
              className="mt-3"
              onFollow={(platform) => count("click", platform)}
            />
          </section>
        )}
        {labels.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Categories and areas">
            {labels.map((label) => (
              <li key={label} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm dark:bg-slate-800">
                {label}
              </li>
            ))}
          </ul>
        )}
        {stream.locationLabel && (
          <p className="text-sm text-slate-600 dark:text-slate-300">{stream.locationLabel}</p>
        )}
      </aside>
      <div className="grid min-w-0 content-start gap-6 lg:col-start-1 lg:row-start-2">
        <StreamMedia stream={stream} />
        {stream.streamDescription && (
          <p className="whitespace-pre-line text-slate-700 dark:text-slate-300">{stream.streamDescription}</p>
        )}
        <StreamProducts products={stream.products} />
      </div>
    </article>
  );
});
