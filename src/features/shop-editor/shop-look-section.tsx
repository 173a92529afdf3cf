import { FormSection } from "@/components/forms/form-section";
import { ImageUrlField } from "@/components/forms/image-url-field";
import { TextField } from "@/components/forms/text-field";
import { httpUrl } from "@convex/lib/validation";
import { ColorField } from "./color-field";
import type { ShopDraft } from "./shop-draft";

type Props = {
  values: ShopDraft;
  update: (patch: Partial<ShopDraft>) => void;
  errors: Record<string, string>;
};

/** Banner, logo, cover, trailer and colours, with previews. */
export function ShopLookSection({ values, update, errors }: Props) {
  const trailer = values.shopTrailerUrl.trim();
  return (
    <FormSection
      title="Look"
      description="Pictures (uploaded, or linked), a trailer video and the colours of your shop's page."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <ImageUrlField
          label="Banner image"
          name="bannerImageUrl"
          value={values.bannerImageUrl}
          onChange={(bannerImageUrl) => update({ bannerImageUrl })}
          error={errors.bannerImageUrl}
          optional
          upload
        />
        <ImageUrlField
          label="Cover image"
          name="coverImageUrl"
          value={values.coverImageUrl}
          onChange={(coverImageUrl) => update({ coverImageUrl })}
          error={errors.coverImageUrl}
          optional
          upload
        />
        <ImageUrlField
          label="Logo"
          name="logoUrl"
          value={values.logoUrl}
          onChange={(logoUrl) => update({ logoUrl })}
          error={errors.logoUrl}
          optional
          shape="square"
          upload
        />
        <div>
          <TextField
            label="Trailer video"
            name="shopTrailerUrl"
            type="url"
            placeholder="https://"
            value={values.shopTrailerUrl}
            onChange={(shopTrailerUrl) => update({ shopTrailerUrl })}
            error={errors.shopTrailerUrl}
            optional
          />
          {trailer !== "" && httpUrl.safeParse(trailer).success && (
            <a
              href={trailer}
              target="_blank"
              rel="noreferrer noopener"
              className="mt-2 inline-block text-sm font-medium text-secondary-700 underline dark:text-blue-300"
            >
              Open the trailer in a new tab
            </a>
          )}
        </div>
        <ColorField
          label="Theme colour"
          name="themeColor"
          value={values.themeColor}
          onChange={(themeColor) => update({ themeColor })}
          error={errors.themeColor}
        />
        <ColorField
          label="Accent colour"
          name="accentThemeColor"
          value={values.accentThemeColor}
          onChange={(accentThemeColor) => update({ accentThemeColor })}
          error={errors.accentThemeColor}
        />
      </div>
    </FormSection>
  );
}
