import { useMemo } from "react";
import { CategoryAndAreaFields } from "@/components/forms/category-and-area-fields";
import { FormFooter } from "@/components/forms/form-footer";
import { FormSection } from "@/components/forms/form-section";
import { ImageUploadTargetContext, type ImageUploadTarget } from "@/components/forms/image-upload";
import { ProductsEditor } from "@/components/forms/products-editor";
import { useDraftForm } from "@/components/forms/use-draft-form";
import { useFormDraft } from "@/lib/use-form-draft";
import type { Id } from "@convex/_generated/dataModel";
import type { TimeZone } from "@convex/lib/constants";
import { PlatformLinksEditor } from "./platform-links-editor";
import { parseStreamDraft, type StreamDraft } from "./stream-draft";
import { StreamMediaSection, StreamShowSection } from "./stream-sections";
import { useSaveStream } from "./use-save-stream";

type StreamFormProps = {
  initial: StreamDraft;
  /** The zone the start and stop are entered in: the shop's. */
  timezone: TimeZone;
  target: { streamId: Id<"streams"> } | { liveShopId: Id<"liveShops"> };
  /** For a new stream: where to go once it is created. */
  onCreated?: (streamId: Id<"streams">) => void;
  /** For a new stream: the shop whose categories and metro areas fill the form. */
  linksFrom?: string;
};

/** Every field of a stream, checked by the shared schemas; times go to the server as UTC milliseconds. */
export function StreamForm({ initial, timezone, target, onCreated, linksFrom }: StreamFormProps) {
  const { save, savedId } = useSaveStream(target);
  const form = useDraftForm({
    draft: useFormDraft(initial),
    parse: (values: StreamDraft) => parseStreamDraft(values, timezone),
    save,
    onCreated: "liveShopId" in target ? onCreated : undefined,
  });
  const { values, update, errors } = form;
  // Pictures uploaded here are the stream's, or its shop's until a new stream exists.
  const uploadTarget = useMemo<ImageUploadTarget>(() => {
    if (savedId !== undefined) return { kind: "stream", streamId: savedId };
    return "liveShopId" in target
      ? { kind: "shop", liveShopId: target.liveShopId }
      : { kind: "stream", streamId: target.streamId };
  }, [savedId, target]);

  return (
    <ImageUploadTargetContext value={uploadTarget}>
      <form {...form.formProps} className="space-y-6">
        <StreamShowSection values={values} update={update} errors={errors} timezone={timezone} />
        <FormSection
          title="Where to watch"
          description="One link per platform. Buyers click through to watch and buy there."
        >
          <PlatformLinksEditor
            links={values.platforms}
            onChange={(platforms) => update({ platforms })}
            errors={errors}
          />
        </FormSection>
        <StreamMediaSection values={values} update={update} errors={errors} />
        <FormSection title="Products">
          <ProductsEditor
            products={values.products}
            onChange={(products) => update({ products })}
            errors={errors}
          />
        </FormSection>
        <FormSection
          title="Categories and metro areas"
          description={
            linksFrom
              ? `How buyers find the show on the explore pages. Filled in from ${linksFrom}; change them for this show.`
              : "How buyers find the show on the explore pages."
          }
        >
          <CategoryAndAreaFields
            categories={values.categories}
            cbsaCodes={values.cbsaCodes}
            update={update}
            errors={errors}
            areasLabel="Metro areas"
          />
        </FormSection>
        <FormFooter submitLabel={savedId === undefined ? "Create stream" : "Save stream"} {...form.footer} />
        {form.guardDialog}
      </form>
    </ImageUploadTargetContext>
  );
}
