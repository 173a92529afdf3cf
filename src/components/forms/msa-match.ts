import { MSA_POPULATIONS } from "@convex/lib/data/msaPopulations";
import { MSAS, type MsaRecord } from "@convex/lib/data/msas";

const MAX_OPTIONS = 8;

/** Larger areas first (an area without a figure last), then by name: "Portland" offers Oregon first. */
function bySize(a: MsaRecord, b: MsaRecord): number {
  const size = (msa: MsaRecord) => MSA_POPULATIONS[msa.cbsaCode] ?? 0;
  return size(b) - size(a) || a.name.localeCompare(b.name);
}

/**
 * The metro areas a type-ahead offers, in every metro-area picker (decision 063): a CBSA code typed
 * exactly, and names starting with the text, first; then names holding every word typed in any order
 * ("tx austin"); each group by size. Commas and case are ignored; `exclude` holds areas already chosen.
 */
export function matchMsas(
  query: string,
  {
    exclude = [],
    msas = MSAS,
    limit = MAX_OPTIONS,
  }: { exclude?: readonly string[]; msas?: readonly MsaRecord[]; limit?: number } = {},
): MsaRecord[] {
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  const text = words.join(" ");
  const starts: MsaRecord[] = [];
  const contains: MsaRecord[] = [];
  for (const msa of msas) {
    if (exclude.includes(msa.cbsaCode)) continue;
    const name = msa.name.toLowerCase().replace(/,/g, "");
    if (msa.cbsaCode === text || name.startsWith(text)) starts.push(msa);
    else if (words.every((word) => name.includes(word))) contains.push(msa);
  }
  return [...starts.sort(bySize), ...contains.sort(bySize)].slice(0, limit);
}
