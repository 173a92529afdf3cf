import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { DIGEST_AREAS_MAX } from "@convex/lib/constants";
import { MsaPicker } from "@/components/forms/msa-picker";
import { useSaveFeedback } from "./save-feedback";

/** The weekly digest's metro areas, and the time zone "Monday 8 AM" is judged in. */
export function DigestSettings() {
  const digest = useQuery(api.weeklyDigest.myDigest);
  const setAreas = useMutation(api.weeklyDigest.setDigestAreas).withOptimisticUpdate((store, args) => {
    const current = store.getQuery(api.weeklyDigest.myDigest, {});
    if (current) store.setQuery(api.weeklyDigest.myDigest, {}, { ...current, areas: args.cbsaCodes });
  });
  const { save, feedback } = useSaveFeedback("mt-3");
  if (!digest) return null;

  return (
    <div className="mt-6">
      <h3 className="font-semibold">Weekly digest</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {digest.timeZone
          ? `Sent Mondays at 8 AM in your time zone, ${digest.timeZone} (from your browser when you last signed in).`
          : `Sent Mondays at 8 AM New York time (${digest.usedTimeZone}): we do not know your time zone yet; it is taken from your browser when you next sign in.`}{" "}
        It lists the next seven days' shows from shops you follow and from the metro areas below, and is not
        sent in a week with none.
      </p>
      <div className="mt-3 max-w-md">
        <MsaPicker
          label="Your metro areas"
          name="digestAreas"
          value={digest.areas}
          onChange={(cbsaCodes) =>
            void save(
              () => setAreas({ cbsaCodes }),
              "Saved — your digest's metro areas.",
              "Your metro areas were not changed.",
            )
          }
          max={DIGEST_AREAS_MAX}
        />
      </div>
      {feedback}
    </div>
  );
}
