import { MSAS, type MsaRecord } from "@convex/lib/data/msas";

const MAX_OPTIONS = 8;

/** Metro areas whose name holds every word typed, e.g. "austin tx". */
export function matchMsas(query: string, exclude: readonly string[]): MsaRecord[] {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  return MSAS.filter(
    (msa) => !exclude.includes(msa.cbsaCode) && words.every((word) => msa.name.toLowerCase().includes(word)),
  ).slice(0, MAX_OPTIONS);
}
