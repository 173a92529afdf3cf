import type { MsaRecord } from "@convex/lib/data/msas";

const EARTH_RADIUS_KM = 6371;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function greatCircleKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The metro area whose centre is nearest to the position, or null when there are none. */
export function nearestMsa(
  position: { lat: number; lng: number },
  msas: readonly MsaRecord[],
): { msa: MsaRecord; distanceKm: number } | null {
  let best: { msa: MsaRecord; distanceKm: number } | null = null;
  for (const msa of msas) {
    const distanceKm = greatCircleKm(position, msa);
    if (!best || distanceKm < best.distanceKm) best = { msa, distanceKm };
  }
  return best;
}

/** Why "Near me" could not find a position, in words (GeolocationPositionError codes 1–3). */
export function geolocationProblem(code: number | "unsupported"): string {
  if (code === "unsupported") return "This browser cannot share your location. Type your metro area instead.";
  if (code === 1) return "Location permission was refused. Type your metro area instead.";
  if (code === 3) return "Finding your location took too long. Try again, or type your metro area.";
  return "Your location is not available right now. Type your metro area instead.";
}
