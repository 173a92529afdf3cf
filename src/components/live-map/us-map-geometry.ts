/**
 * The map's drawing, from well-kept libraries and data shipped in their packages (decision 086):
 * us-atlas's states (Census boundaries as TopoJSON), drawn with d3-geo's Albers USA projection (the
 * lower 48, Alaska and Hawaii insets) and a Puerto Rico inset of our own, into a 975 × 610 view.
 */
import { geoAlbersUsa, geoMercator, geoPath } from "d3-geo";
import type { FeatureCollection, Geometry } from "geojson";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import states from "us-atlas/states-10m.json";

export const MAP_WIDTH = 975;
export const MAP_HEIGHT = 610;
const PUERTO_RICO = "72";

type StatesTopology = Topology<{ states: GeometryCollection; nation: GeometryCollection }>;

export type MapGeometry = {
  /** One path per state or territory. */
  states: { id: string; d: string }[];
  /** The borders between states, drawn once. */
  borders: string;
  /** A metro area's point in the view, or null outside it. */
  project: (lng: number, lat: number) => [number, number] | null;
};

let geometry: MapGeometry | undefined;

/** Made once, on first use: projecting the states is the map's one heavy step. */
export function mapGeometry(): MapGeometry {
  if (geometry) return geometry;
  const topology = states as unknown as StatesTopology;
  const collection = feature(topology, topology.objects.states) as FeatureCollection<
    Geometry,
    { name: string }
  >;
  const albers = geoAlbersUsa()
    .scale(1300)
    .translate([MAP_WIDTH / 2, MAP_HEIGHT / 2]);
  const puertoRico = collection.features.find((state) => String(state.id) === PUERTO_RICO);
  const inset = geoMercator();
  if (puertoRico)
    inset.fitExtent(
      [
        [860, 540],
        [950, 580],
      ],
      puertoRico,
    );
  const mainPath = geoPath(albers);
  const insetPath = geoPath(inset);
  geometry = {
    states: collection.features.map((state) => ({
      id: String(state.id),
      d: (String(state.id) === PUERTO_RICO ? insetPath(state) : mainPath(state)) ?? "",
    })),
    borders:
      mainPath(mesh(topology, topology.objects.states, (a, b) => a !== b && String(a.id) !== PUERTO_RICO)) ??
      "",
    project: (lng, lat) => {
      const point = albers([lng, lat]);
      if (point) return [point[0], point[1]];
      // Albers USA has no Puerto Rico: its areas go on the inset.
      const onInset = lat < 19 && lat > 17.5 && lng > -68 && lng < -65 ? inset([lng, lat]) : null;
      return onInset ? [onInset[0], onInset[1]] : null;
    },
  };
  return geometry;
}
