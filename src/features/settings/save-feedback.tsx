import { useCallback, useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { errorMessage } from "@/lib/errors";
import { SaveStatus } from "./save-status";

type Outcome = { tone: "error" | "success"; text: string } | null;

/**
 * A setting saved as it is changed: `save` runs the change and keeps what came of it, `feedback` shows
 * "Saved — …" politely, or why it was refused.
 */
export function useSaveFeedback(className: string) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const save = useCallback(async (change: () => Promise<unknown>, saved: string, refused: string) => {
    setOutcome(null);
    try {
      await change();
      setOutcome({ tone: "success", text: saved });
    } catch (caught) {
      setOutcome({ tone: "error", text: `${refused} ${errorMessage(caught)}` });
    }
  }, []);
  const feedback = (
    <>
      <SaveStatus message={outcome?.tone === "success" ? outcome.text : null} className={className} />
      {outcome?.tone === "error" && (
        <div className={className}>
          <FormAlert message={outcome.text} />
        </div>
      )}
    </>
  );
  return { save, feedback };
}
