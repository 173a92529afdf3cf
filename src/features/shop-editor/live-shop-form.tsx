import { useEffect, useMemo, useState } from "react";
import { CategoryAndAreaFields } from "@/components/forms/category-and-area-fields";
import { FormFooter } from "@/components/forms/form-footer";
import { FormSection } from "@/components/forms/form-section";
import { ImageUploadTargetContext, type ImageUploadTarget } from "@/components/forms/image-upload";
import { ProductsEditor } from "@/components/forms/products-editor";
import { TextField } from "@/components/forms/text-field";
import { useDraftForm } from "@/components/forms/use-draft-form";
import { useFormDraft } from "@/lib/use-form-draft";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS, slugify } from "@convex/lib/validation";
import { FaqEditor } from "./faq-editor";
import { parseShopDraft, type ShopDraft } from "./shop-draft";
import { ShopIdentitySection } from "./shop-identity-section";
import { ShopLookSection } from "./shop-look-section";
import { TAKEN_MESSAGE, useSlugAvailability } from "./slug-field";
import { useSaveShop } from "./use-save-shop";

type LiveShopFormProps = {
  initial: ShopDraft;
  /** Absent for a new shop. */
  liveShopId?: Id<"liveShops">;
  onCreated?: (liveShopId: Id<"liveShops">) => void;
  /** Tells the page whether the form holds unsaved changes (lifecycle actions wait for a save). */
  onDirtyChange?: (dirty: boolean) => void;
};

/** Every field of a live shop (docs/product.md#data-model), checked by the shared schemas before sending. */
export function LiveShopForm({ initial, liveShopId, onCreated, onDirtyChange }: LiveShopFormProps) {
  const { save, savedId } = useSaveShop(liveShopId);
  const [slugSuggested, setSlugSuggested] = useState(liveShopId === undefined && initial.slug === "");
  const draft = useFormDraft(initial);
  const availability = useSlugAvailability(draft.values.slug, savedId);
  const form = useDraftForm({
    draft,
    parse: (values: ShopDraft) => {
      const parsed = parseShopDraft(values);
      if (availability !== "taken" || parsed.errors.slug) return parsed;
      return { errors: { ...parsed.errors, slug: TAKEN_MESSAGE } };
    },
    save,
    onCreated: liveShopId === undefined ? onCreated : undefined,
  });
  const { values, update, errors } = form;
  useEffect(() => onDirtyChange?.(form.dirty), [form.dirty, onDirtyChange]);

  // Pictures uploaded here are the shop's, or the caller's until their new shop exists.
  const uploadTarget = useMemo<ImageUploadTarget>(
    () => (savedId === undefined ? { kind: "me" } : { kind: "shop", liveShopId: savedId }),
    [savedId],
  );

  return (
    <ImageUploadTargetContext value={uploadTarget}>
      <form {...form.formProps} className="space-y-6">
        <ShopIdentitySection
          values={values}
          update={update}
          errors={errors}
          slugAvailability={availability}
          slugSuggested={slugSuggested}
          onNameChange={(liveShopName) =>
            update({ liveShopName, ...(slugSuggested && { slug: slugify(liveShopName) }) })
          }
          onSlugChange={(next) => {
            setSlugSuggested(next === "");
            update({ slug: next });
          }}
        />
        <FormSection
          title="Where and what you sell"
          description="At least one category and one metro area are needed before verification."
        >
          <CategoryAndAreaFields
            categories={values.categories}
            cbsaCodes={values.cbsaCodes}
            update={update}
            errors={errors}
            areasLabel="Metro areas served"
          />
        </FormSection>
        <FormSection title="Products">
          <TextField
            label="Products summary"
            name="productsSummary"
            value={values.productsSummary}
            onChange={(productsSummary) => update({ productsSummary })}
            error={errors.productsSummary}
            max={LIMITS.productsSummary}
            multiline
            rows={3}
            optional
          />
          <ProductsEditor
            products={values.products}
            onChange={(products) => update({ products })}
            errors={errors}
          />
        </FormSection>
        <ShopLookSection values={values} update={update} errors={errors} />
        <FormSection title="Questions and answers" description="Shown on your shop's page, in this order.">
          <FaqEditor
            entries={values.faqSection}
            onChange={(faqSection) => update({ faqSection })}
            errors={errors}
          />
        </FormSection>
        <FormFooter submitLabel={savedId === undefined ? "Create shop" : "Save shop"} {...form.footer} />
        {form.guardDialog}
      </form>
    </ImageUploadTargetContext>
  );
}
