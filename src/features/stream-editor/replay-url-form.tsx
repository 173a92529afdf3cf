import { useMutation } from "convex/react";
import { FormFooter } from "@/components/forms/form-footer";
import { FormSection } from "@/components/forms/form-section";
import { TextField } from "@/components/forms/text-field";
import { useDraftForm } from "@/components/forms/use-draft-form";
import { useFormDraft } from "@/lib/use-form-draft";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { fieldErrors, streamFieldsSchema } from "@convex/lib/validation";

const replaySchema = streamFieldsSchema.pick({ replayVideoUrl: true });

function parseReplay(values: { replayVideoUrl: string }) {
  const parsed = replaySchema.safeParse(values);
  return parsed.success
    ? { data: values.replayVideoUrl.trim(), errors: {} }
    : { errors: fieldErrors(parsed.error) };
}

/** An ended stream keeps everything as shown; only its replay link can still be added, changed or removed. */
export function ReplayUrlForm({
  streamId,
  replayVideoUrl,
}: {
  streamId: Id<"streams">;
  replayVideoUrl?: string;
}) {
  const setReplayUrl = useMutation(api.streams.setReplayUrl);
  const form = useDraftForm({
    draft: useFormDraft({ replayVideoUrl: replayVideoUrl ?? "" }),
    parse: parseReplay,
    save: (url: string) => setReplayUrl({ streamId, replayVideoUrl: url }),
  });
  return (
    <form {...form.formProps} className="space-y-6">
      <FormSection
        title="Replay"
        description="This show has ended. Add a link to its recording so buyers who missed it can watch."
      >
        <TextField
          label="Replay link"
          name="replayVideoUrl"
          type="url"
          placeholder="https://"
          value={form.values.replayVideoUrl}
          onChange={(value) => form.update({ replayVideoUrl: value })}
          error={form.errors.replayVideoUrl}
          optional
        />
      </FormSection>
      <FormFooter submitLabel="Save replay link" {...form.footer} />
      {form.guardDialog}
    </form>
  );
}
