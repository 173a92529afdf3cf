import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { paths } from "@/config/paths";
import { isChunkLoadError } from "@/lib/chunk-reload";
import { errorMessage } from "@/lib/errors";
import { emptyExploreFilter, exploreFilterToSearchParams, type ExploreFilter } from "@convex/lib/explore";
import { writeExploreView, type ExploreSort, type ExploreWhen } from "@convex/lib/exploreView";

// The map, its data and its geography come after the first paint, never with the page's own
// JavaScript (decision 086): the home page's initial JavaScript stays within its budget.
const LiveMap = lazy(async () => ({ default: (await import("./live-map")).LiveMap }));

export type AreaHref = (cbsaCode: string) => string;

/**
 * Explore's streams filtered to one metro area, by explore's own URL rules: the place is that area
 * alone; the categories, search text and view of the explore page it is chosen on stay.
 */
export function areaExploreHref(
  cbsaCode: string,
  from: { filter?: ExploreFilter; view?: { when: ExploreWhen; sort?: ExploreSort } } = {},
): string {
  const params = exploreFilterToSearchParams({
    ...(from.filter ?? emptyExploreFilter()),
    states: [],
    msas: [cbsaCode],
  });
  if (from.view) writeExploreView(params, from.view);
  return paths.explore.streams.getHref(params.toString());
}

/** The map's place: loading (busy, pulsing) once it has painted, or kept still while it waits to be asked for. */
export function MapPlaceholder({ loading }: { loading: boolean }) {
  return loading ? (
    <div
      className="aspect-[975/610] w-full animate-pulse rounded-2xl bg-slate-100 motion-reduce:animate-none dark:bg-slate-800"
      aria-busy="true"
      aria-label="Loading the map of shows"
    />
  ) : (
    <div className="aspect-[975/610] w-full rounded-2xl bg-slate-100 dark:bg-slate-800" />
  );
}

/**
 * The live map of metro areas with shows (docs/product.md#the-live-map), loaded once the page has painted.
 * `hrefFor` is where choosing an area leads: explore's streams filtered to it. Where the map is not
 * drawn yet (`load` false: explore on a phone, until asked for), its place is kept and nothing is
 * fetched or subscribed to.
 */
export function LiveMapSection({ hrefFor, load = true }: { hrefFor: AreaHref; load?: boolean }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A task queued from the next frame runs after that frame has painted.
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, []);
  return (
    <MapErrorBoundary>
      {painted && load ? (
        <Suspense fallback={<MapPlaceholder loading />}>
          <LiveMap hrefFor={hrefFor} />
        </Suspense>
      ) : (
        <MapPlaceholder loading={load} />
      )}
    </MapErrorBoundary>
  );
}

/** The words for a map that could not load or answer: the rest of the page goes on working. */
export function mapProblem(error: unknown): string {
  if (isChunkLoadError(error))
    return "The map could not be loaded. Check your connection and reload the page.";
  const message = errorMessage(error);
  return message === errorMessage(null)
    ? "The map of shows is not available right now. Please try again later."
    : message;
}

class MapErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <p
        role="alert"
        className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300"
      >
        {mapProblem(this.state.error)}
      </p>
    );
  }
}
