import { LIMITS } from "@convex/lib/limits";
import { CategoryLinksEditor } from "./category-links-editor";
import type { CategoryLinkDraft } from "./category-links";
import { MsaPicker } from "./msa-picker";

type CategoryAndAreaFieldsProps = {
  categories: CategoryLinkDraft[];
  cbsaCodes: string[];
  /** Changes one of the two lists; the other stays as it is. */
  update: (patch: { categories: CategoryLinkDraft[] } | { cbsaCodes: string[] }) => void;
  /** The form's messages by field; `categories` and `cbsaCodes` are the lists' own. */
  errors: Record<string, string>;
  /** The metro-area picker's label: where a shop sells, or where a show is listed. */
  areasLabel: string;
};

/** A shop's or stream's categories and metro areas: how buyers find it on the explore pages. */
export function CategoryAndAreaFields({
  categories,
  cbsaCodes,
  update,
  errors,
  areasLabel,
}: CategoryAndAreaFieldsProps) {
  return (
    <>
      <CategoryLinksEditor
        links={categories}
        onChange={(next) => update({ categories: next })}
        errors={errors}
      />
      {errors.categories && <p className="text-sm text-red-700 dark:text-red-300">{errors.categories}</p>}
      <MsaPicker
        label={areasLabel}
        name="cbsaCodes"
        value={cbsaCodes}
        max={LIMITS.linkedMetroAreas}
        onChange={(next) => update({ cbsaCodes: next })}
        error={errors.cbsaCodes}
      />
    </>
  );
}
