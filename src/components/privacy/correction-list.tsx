import { formatDateTime } from "@/lib/format-date";
import { absoluteHttpUrl } from "@convex/lib/validation";
import type { PrivacyRequestView } from "./privacy-status";

export type Correction = NonNullable<PrivacyRequestView["corrections"]>[number];

function Value({ value, empty }: { value: string | undefined; empty: string }) {
  if (value === undefined) return <span className="italic text-slate-500 dark:text-slate-400">{empty}</span>;
  return <span className="[overflow-wrap:anywhere]">“{value}”</span>;
}

/** A picture's change in words, with the new picture (the old file may be gone). */
function PictureChange({ from, to }: Pick<Correction, "from" | "to">) {
  const words = to === undefined ? "removed" : from === undefined ? "added" : "replaced";
  return (
    <>
      {words}
      {to !== undefined && absoluteHttpUrl.safeParse(to).success && (
        <img
          src={to}
          alt="The new picture"
          className="ml-2 inline-block size-8 rounded-full border border-slate-200 object-cover align-middle dark:border-slate-700"
        />
      )}
    </>
  );
}

/**
 * What an admin changed for a correction request, oldest first: each field, its value before and
 * after (a picture as the new picture), and when. The person reads it in their privacy requests; the
 * admin on the correction screen.
 */
export function CorrectionList({
  corrections,
  heading = "Changes made",
}: {
  corrections: readonly Correction[];
  heading?: string;
}) {
  if (corrections.length === 0) return null;
  return (
    <div className="mt-3">
      <h4 className="text-sm font-medium text-slate-700 dark:text-slate-200">{heading}</h4>
      <ul aria-label={heading} className="mt-1 space-y-1.5 text-sm">
        {corrections.map((correction, index) => (
          <li key={index} className="text-slate-700 dark:text-slate-300">
            <span className="font-medium text-slate-900 dark:text-slate-100">{correction.what}</span>:{" "}
            {correction.kind === "picture" ? (
              <PictureChange from={correction.from} to={correction.to} />
            ) : (
              <>
                was <Value value={correction.from} empty="empty" />, now{" "}
                <Value value={correction.to} empty="removed" />
              </>
            )}
            <span className="text-slate-500 dark:text-slate-400">
              {" "}
              · <time dateTime={new Date(correction.at).toISOString()}>{formatDateTime(correction.at)}</time>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
