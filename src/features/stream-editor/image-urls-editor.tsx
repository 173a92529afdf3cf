import { ImageUrlField } from "@/components/forms/image-url-field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
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
      <p className="text-sm text-slate-500 dark:text-slate-400">
        The first image is shown on the stream's card.
      </p>
      {images.map((image, index) => (
        <div key={image.key} className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <ImageUrlField
              label={`Image ${index + 1}`}
              name={`streamImageUrls.${index}`}
              value={image.url}
              onChange={(url) =>
                onChange(images.map((other, i) => (i === index ? { ...other, url } : other)))
              }
              error={errors[`streamImageUrls.${index}`]}
              upload
            />
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="mt-6"
            aria-label={`Remove image ${index + 1}`}
            onClick={() => onChange(images.filter((_, i) => i !== index))}
          >
            <Icon name="lucide:x" />
          </Button>
        </div>
      ))}
      {errors.streamImageUrls && (
        <p className="text-sm text-red-700 dark:text-red-300">{errors.streamImageUrls}</p>
      )}
      <Button
        variant="outline"
        size="sm"
        disabled={images.length >= LIMITS.streamImageUrls}
        onClick={() => onChange([...images, { key: crypto.randomUUID(), url: "" }])}
      >
        <Icon name="lucide:plus" className="size-4" />
        Add an image
      </Button>
    </fieldset>
  );
}
