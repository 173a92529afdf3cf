import type { FunctionReturnType } from "convex/server";
import { useMemo, useState, type CSSProperties } from "react";
import { Link, useNavigate } from "react-router-dom";
import { streamCardTime } from "@/components/streams/stream-card";
import { usePageQuery } from "@/lib/page-query";
import { useNow } from "@/lib/use-now";
import { useViewerDay } from "@/lib/viewer-time-zone";
import { api } from "@convex/_generated/api";
import { MSAS } from "@convex/lib/data/msas";
import { MapPlaceholder, type AreaHref } from "./live-map-section";
import { MAP_HEIGHT, MAP_WIDTH, mapGeometry } from "./us-map-geometry";

export type MapAreaData = FunctionReturnType<typeof api.liveMap.listAreas>[number];

const MSA_BY_CODE = new Map(MSAS.map((msa) => [msa.cbsaCode, msa]));

export function areaName(cbsaCode: string): string {
  return MSA_BY_CODE.get(cbsaCode)?.name ?? cbsaCode;
}

/** "2 live now · 3 today · 7 this week": the shows on now count in today and this week, as on explore. */
export function areaCounts(area: Pick<MapAreaData, "onNow" | "today" | "week">): string {
  return [
    area.onNow > 0 ? `${area.onNow} live now` : null,
    area.today > 0 ? `${area.today} today` : null,
    `${area.week} this week`,
  ]
    .filter((part) => part !== null)
    .join(" · ");
}

/**
 * The map and its list: a Convex subscription, so both change without reload as sellers go live. The
 * drawing is for the eye and the pointer; the list holds the same information for the keyboard,
 * screen readers and small screens, and focusing an area there shows it on the map.
 */
export function LiveMap({ hrefFor }: { hrefFor: AreaHref }) {
  const areas = usePageQuery(api.liveMap.listAreas, useViewerDay());
  const [active, setActive] = useState<string | null>(null);
  if (areas === undefined) return <MapPlaceholder loading />;
  const liveAreas = areas.filter((area) => area.onNow > 0).length;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <UsMap areas={areas} active={active} onActive={setActive} hrefFor={hrefFor} />
      <div className="min-w-0">
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {areas.length === 0
            ? "No shows on now or this week yet. Check back soon."
            : `${liveAreas === 1 ? "1 area is" : `${liveAreas} areas are`} live now; ${areas.length === 1 ? "1 area has" : `${areas.length} areas have`} shows this week.`}
        </p>
        {areas.length > 0 && (
          <AreaList areas={areas} active={active} onActive={setActive} hrefFor={hrefFor} />
        )}
      </div>
    </div>
  );
}

type AreaProps = {
  areas: readonly MapAreaData[];
  active: string | null;
  onActive: (cbsaCode: string | null) => void;
  hrefFor: AreaHref;
};

function NextShows({ area }: { area: MapAreaData }) {
  const now = useNow();
  const zone = useViewerDay().timeZone;
  if (area.next.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-sm text-slate-600 dark:text-slate-300">
      {area.next.map((show) => {
        const onNow = show.streamStatus === "LIVE" || show.streamStatus === "PAUSED";
        const time = onNow
          ? show.streamStatus === "LIVE"
            ? "Live"
            : "Paused"
          : streamCardTime(show, now, zone);
        return (
          <li key={show._id} className="truncate">
            <span className={onNow ? "font-semibold text-red-700 dark:text-red-300" : undefined}>{time}</span>
            {": "}
            {show.streamTitle}{" "}
            <span className="text-slate-500 dark:text-slate-400">({show.liveShopName})</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Areas listed before "Show all": the busiest (the query's order), so a phone's page goes on below. */
export const FIRST_AREAS = 8;

function AreaList({ areas, active, onActive, hrefFor }: AreaProps) {
  const [all, setAll] = useState(false);
  const listed = all ? areas : areas.slice(0, FIRST_AREAS);
  return (
    <>
      <ul
        aria-label="Metro areas with shows"
        className="mt-3 divide-y divide-slate-200 overflow-y-auto rounded-2xl border border-slate-200 lg:max-h-[28rem] dark:divide-slate-800 dark:border-slate-800"
      >
        {listed.map((area) => (
          <li key={area.cbsaCode}>
            <Link
              to={hrefFor(area.cbsaCode)}
              className={`block px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-900 dark:focus-visible:bg-slate-900 ${active === area.cbsaCode ? "bg-slate-50 dark:bg-slate-900" : ""}`}
              onMouseEnter={() => onActive(area.cbsaCode)}
              onMouseLeave={() => onActive(null)}
              onFocus={() => onActive(area.cbsaCode)}
              onBlur={() => onActive(null)}
            >
              <span className="flex items-center gap-2 font-medium">
                {area.onNow > 0 && <span className="size-2 shrink-0 rounded-full bg-red-600" aria-hidden />}
                {areaName(area.cbsaCode)}
              </span>
              <span className="block text-sm">{areaCounts(area)}</span>
              <NextShows area={area} />
            </Link>
          </li>
        ))}
      </ul>
      {areas.length > FIRST_AREAS && (
        <button
          type="button"
          className="mt-2 text-sm font-medium text-primary-700 underline-offset-2 hover:underline focus-visible:underline dark:text-primary-100"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? `Show the first ${FIRST_AREAS} areas` : `Show all ${areas.length} areas`}
        </button>
      )}
    </>
  );
}

/** A dot's radius: grows with the week's shows, slowly, so a busy metro does not hide its neighbours. */
function radius(area: MapAreaData): number {
  return Math.min(4 + 2.2 * Math.sqrt(area.week), 16);
}

function UsMap({ areas, active, onActive, hrefFor }: AreaProps) {
  const navigate = useNavigate();
  const geometry = mapGeometry();
  const points = useMemo(
    () =>
      areas.flatMap((area) => {
        const msa = MSA_BY_CODE.get(area.cbsaCode);
        const point = msa && geometry.project(msa.lng, msa.lat);
        return point ? [{ area, x: point[0], y: point[1] }] : [];
      }),
    [areas, geometry],
  );
  const shown = points.find((point) => point.area.cbsaCode === active);
  return (
    <div>
      {/* The drawing and its card share a box, so the card's place is a share of the drawing's. */}
      <div className="relative">
        {/* For the eye and the pointer; the list beside it says the same for everyone else. */}
        <svg
          viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`}
          className="block h-auto w-full"
          aria-hidden="true"
          data-testid="live-map"
        >
          <g className="fill-slate-200 dark:fill-slate-800">
            {geometry.states.map((state) => (
              <path key={state.id} d={state.d} />
            ))}
          </g>
          <path
            d={geometry.borders}
            className="fill-none stroke-white dark:stroke-slate-950"
            strokeWidth={0.8}
          />
          {/* Smallest on top, so a small area beside a busy one can still be pointed at. */}
          {[...points]
            .sort((a, b) => radius(b.area) - radius(a.area))
            .map(({ area, x, y }) => (
              <g
                key={area.cbsaCode}
                data-area={area.cbsaCode}
                data-live={area.onNow > 0 || undefined}
                className="cursor-pointer"
                onMouseEnter={() => onActive(area.cbsaCode)}
                onMouseLeave={() => onActive(null)}
                onClick={() => void navigate(hrefFor(area.cbsaCode))}
              >
                {area.onNow > 0 && (
                  <circle
                    cx={x}
                    cy={y}
                    r={radius(area)}
                    className="origin-center fill-red-500/40 [transform-box:fill-box] motion-safe:animate-ping"
                  />
                )}
                <circle
                  cx={x}
                  cy={y}
                  r={radius(area)}
                  className={
                    area.onNow > 0
                      ? "fill-red-600 stroke-white dark:stroke-slate-950"
                      : area.today > 0
                        ? "fill-amber-500 stroke-white dark:stroke-slate-950"
                        : "fill-primary-600/70 stroke-white dark:fill-primary-400/70 dark:stroke-slate-950"
                  }
                  strokeWidth={active === area.cbsaCode ? 3 : 1.5}
                />
              </g>
            ))}
        </svg>
        {shown && (
          <div
            className="pointer-events-none absolute z-10 w-64 max-w-full -translate-x-1/2 rounded-xl border border-slate-200 bg-white p-3 text-left shadow-lg dark:border-slate-700 dark:bg-slate-900"
            style={cardPlace(shown.x, shown.y, radius(shown.area))}
            aria-hidden="true"
          >
            <p className="font-medium">{areaName(shown.area.cbsaCode)}</p>
            <p className="text-sm">{areaCounts(shown.area)}</p>
            <NextShows area={shown.area} />
          </div>
        )}
      </div>
      <Legend />
    </div>
  );
}

/**
 * Where an area's card sits: centred under its dot, or over it for a dot in the map's lower half, and
 * moved in from the sides so that the whole card (16rem wide, or the map's width) stays on the map.
 */
export function cardPlace(x: number, y: number, r: number): CSSProperties {
  const half = "min(8rem, 50%)";
  const place: CSSProperties = {
    left: `clamp(${half}, ${((x / MAP_WIDTH) * 100).toFixed(2)}%, calc(100% - ${half}))`,
  };
  if (y > MAP_HEIGHT / 2) place.bottom = `${(((MAP_HEIGHT - y + r + 6) / MAP_HEIGHT) * 100).toFixed(2)}%`;
  else place.top = `${(((y + r + 6) / MAP_HEIGHT) * 100).toFixed(2)}%`;
  return place;
}

function Legend() {
  const item = "inline-flex items-center gap-1.5";
  return (
    <p className="mt-2 flex flex-wrap gap-4 text-sm text-slate-600 dark:text-slate-300" aria-hidden="true">
      <span className={item}>
        <span className="size-3 rounded-full bg-red-600" /> Live now
      </span>
      <span className={item}>
        <span className="size-3 rounded-full bg-amber-500" /> Today
      </span>
      <span className={item}>
        <span className="size-3 rounded-full bg-primary-600/70 dark:bg-primary-400/70" /> This week
      </span>
    </p>
  );
}
