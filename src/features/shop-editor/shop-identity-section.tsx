import { Field, controlClass } from "@/components/forms/field";
import { FormSection } from "@/components/forms/form-section";
import { TextField } from "@/components/forms/text-field";
import {
  SCHEMA_TYPES,
  TIME_ZONE_LABELS,
  TIME_ZONES,
  type SchemaType,
  type TimeZone,
} from "@convex/lib/constants";
import { LIMITS } from "@convex/lib/validation";
import { LanguageChips } from "./language-chips";
import type { ShopDraft } from "./shop-draft";
import { SlugField, type SlugAvailability } from "./slug-field";

const SCHEMA_TYPE_LABELS: Record<SchemaType, string> = {
  Organization: "Organization",
  LocalBusiness: "Local business",
  Store: "Store",
  OnlineStore: "Online store",
  Person: "Individual seller",
};

type Props = {
  values: ShopDraft;
  update: (patch: Partial<ShopDraft>) => void;
  errors: Record<string, string>;
  onNameChange: (name: string) => void;
  onSlugChange: (slug: string) => void;
  slugAvailability: SlugAvailability;
  slugSuggested: boolean;
};

/** Who the shop is: name, address, tax id, headline, description, time zone and languages. */
export function ShopIdentitySection({
  values,
  update,
  errors,
  onNameChange,
  onSlugChange,
  slugAvailability,
  slugSuggested,
}: Props) {
  return (
    <FormSection
      title="About your shop"
      description="Name, time zone and description are needed before verification."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Shop name"
          name="liveShopName"
          value={values.liveShopName}
          onChange={onNameChange}
          error={errors.liveShopName}
          max={LIMITS.shopName}
          autoComplete="organization"
        />
        <SlugField
          value={values.slug}
          onChange={onSlugChange}
          error={errors.slug}
          availability={slugAvailability}
          suggested={slugSuggested}
        />
        <TextField
          label="Tax id"
          name="taxId"
          value={values.taxId}
          onChange={(taxId) => update({ taxId })}
          error={errors.taxId}
          max={LIMITS.taxId}
          optional
          hint="Seen only by you and the admins who verify shops."
        />
        <Field label="Kind of business" error={errors.schemaType}>
          {(control) => (
            <select
              {...control}
              name="schemaType"
              value={values.schemaType}
              onChange={(event) => update({ schemaType: event.target.value as SchemaType })}
              className={controlClass}
            >
              {SCHEMA_TYPES.map((type) => (
                <option key={type} value={type}>
                  {SCHEMA_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <TextField
        label="Headline"
        name="headline"
        value={values.headline}
        onChange={(headline) => update({ headline })}
        error={errors.headline}
        max={LIMITS.headline}
        optional
      />
      <TextField
        label="Description"
        name="description"
        value={values.description}
        onChange={(description) => update({ description })}
        error={errors.description}
        max={LIMITS.shopDescription}
        multiline
        rows={6}
      />
      <Field
        label="Time zone"
        error={errors.timezone}
        hint="Stream times are entered and shown in this zone."
      >
        {(control) => (
          <select
            {...control}
            name="timezone"
            value={values.timezone}
            onChange={(event) => update({ timezone: event.target.value as TimeZone })}
            className={controlClass}
          >
            {TIME_ZONES.map((zone) => (
              <option key={zone} value={zone}>
                {TIME_ZONE_LABELS[zone]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <LanguageChips
        value={values.languages}
        onChange={(languages) => update({ languages })}
        error={errors.languages}
      />
    </FormSection>
  );
}
