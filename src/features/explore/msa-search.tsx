import { controlClass } from "@/components/forms/field";
import { MsaOptions, useMsaCombobox } from "@/components/forms/msa-combobox";

/** A type-ahead over all 393 metro areas (WAI-ARIA combobox); choosing one calls `onChoose`. */
export function MsaSearch({
  selected,
  onChoose,
}: {
  selected: readonly string[];
  onChoose: (cbsaCode: string) => void;
}) {
  // Escape clears the list here rather than closing the filter menu around it.
  const combobox = useMsaCombobox({
    exclude: selected,
    onChoose: (msa) => onChoose(msa.cbsaCode),
    stopEscape: true,
  });
  return (
    <div className="relative">
      <label htmlFor={combobox.id} className="text-sm font-medium">
        Find a metro area
      </label>
      <input {...combobox.inputProps} placeholder="Type a city, like Austin" className={controlClass} />
      <MsaOptions
        listId={combobox.listId}
        label="Metro areas"
        options={combobox.options}
        open={combobox.open}
        active={combobox.active}
        onChoose={combobox.choose}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-800 dark:bg-slate-900"
      />
    </div>
  );
}
