import { FormSection } from "@/components/forms/form-section";
import { TextField } from "@/components/forms/text-field";
import type { TimeZone } from "@convex/lib/constants";
import { LIMITS } from "@convex/lib/validation";
import { ImageUrlsEditor } from "./image-urls-editor";
import type { StreamDraft } from "./stream-draft";
import { StreamTimesFields } from "./stream-times-fields";

type Props = {
  values: StreamDraft;
  update: (patch: Partial<StreamDraft>) => void;
  errors: Record<string, string>;
};

/** Title, description and times (in the shop's zone). */
export function StreamShowSection({ values, update, errors, timezone }: Props & { timezone: TimeZone }) {
  return (
    <FormSection title="The show">
      <TextField
        label="Title"
        name="streamTitle"
        value={values.streamTitle}
        onChange={(streamTitle) => update({ streamTitle })}
        error={errors.streamTitle}
        max={LIMITS.streamTitle}
      />
      <TextField
        label="Description"
        name="streamDescription"
        value={values.streamDescription}
        onChange={(streamDescription) => update({ streamDescription })}
        error={errors.streamDescription}
        max={LIMITS.streamDescription}
        multiline
        rows={5}
        optional
      />
      <StreamTimesFields
        start={values.start}
        stop={values.stop}
        timezone={timezone}
        onChange={update}
        errors={errors}
      />
    </FormSection>
  );
}

/** Images, and the video and trailer links. The replay link waits for the end (ReplayUrlForm). */
export function StreamMediaSection({ values, update, errors }: Props) {
  return (
    <FormSection title="Images and video">
      <ImageUrlsEditor
        images={values.streamImageUrls}
        onChange={(streamImageUrls) => update({ streamImageUrls })}
        errors={errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Video link"
          name="streamVideoUrl"
          type="url"
          placeholder="https://"
          value={values.streamVideoUrl}
          onChange={(streamVideoUrl) => update({ streamVideoUrl })}
          error={errors.streamVideoUrl}
          optional
        />
        <TextField
          label="Trailer link"
          name="streamTrailerUrl"
          type="url"
          placeholder="https://"
          value={values.streamTrailerUrl}
          onChange={(streamTrailerUrl) => update({ streamTrailerUrl })}
          error={errors.streamTrailerUrl}
          optional
        />
      </div>
    </FormSection>
  );
}
