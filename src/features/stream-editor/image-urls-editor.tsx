import { FieldsetList } from "@/components/forms/fieldset-list";
import { ImageUrlField } from "@/components/forms/image-url-field";
import { LIMITS } from "@convex/lib/validation";
import type { ImageUrlDraft } from "./stream-draft";

type Props = {
  images: ImageUrlDraft[];
  onChange: (images: ImageUrlDraft[]) => void;
  errors: Record<string, string>;
};

/** The stream's images, first one on its card: each uploaded or linked, and previewed. */
export function ImageUrlsEditor({ images, onChange, errors }: Props) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">Images</legend>
      <FieldsetList
        items={images}
        onChange={onChange}
        keyOf={(image) => image.key}
        nameOf={(_, index) => `image ${index + 1}`}
        newItem={() => ({ key: crypto.randomUUID(), url: "" })}
        addLabel="Add an image"
        max={LIMITS.streamImageUrls}
        hint="The first image is shown on the stream's card."
        error={errors.streamImageUrls}
        rowClassName="space-y-2"
        renderItem={(image, index, edit) => (
          <ImageUrlField
            label={`Image ${index + 1}`}
            name={`streamImageUrls.${index}`}
            value={image.url}
            onChange={(url) => edit({ url })}
            error={errors[`streamImageUrls.${index}`]}
            upload
          />
        )}
      />
    </fieldset>
  );
}
