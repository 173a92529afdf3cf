import { Icon } from "@/components/ui/icon";
import { MSAS } from "@convex/lib/data/msas";
import { controlClass } from "./field";
import { MsaOptions, useMsaCombobox } from "./msa-combobox";

const MSA_BY_CODE = new Map(MSAS.map((msa) => [msa.cbsaCode, msa]));

type MsaPickerProps = {
  label: string;
  name: string;
  value: string[];
  onChange: (cbsaCodes: string[]) => void;
  /** How many may be chosen; the input is disabled once they are. */
  max: number;
  error?: string;
};

/** Type-ahead over the 393 metro areas (WAI-ARIA combobox with a list box); chosen ones show as chips. */
export function MsaPicker({ label, name, value, onChange, max, error }: MsaPickerProps) {
  const combobox = useMsaCombobox({ exclude: value, onChoose: (msa) => onChange([...value, msa.cbsaCode]) });
  const { id } = combobox;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const full = value.length >= max;

  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          {...combobox.inputProps}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          disabled={full}
          placeholder={full ? `${max} chosen, the most allowed` : "Type a city, like Austin"}
          className={controlClass}
        />
        <MsaOptions
          listId={combobox.listId}
          label={label}
          options={combobox.options}
          open={combobox.open}
          active={combobox.active}
          onChoose={combobox.choose}
          className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        />
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate-500 dark:text-slate-400">
        Up to {max}; type part of a name and pick from the list.
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {value.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={`${label}: chosen`}>
          {value.map((code) => {
            const msaName = MSA_BY_CODE.get(code)?.name ?? code;
            return (
              <li
                key={code}
                className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 text-sm dark:bg-slate-800"
              >
                {msaName}
                <button
                  type="button"
                  aria-label={`Remove ${msaName}`}
                  onClick={() => onChange(value.filter((other) => other !== code))}
                  className="rounded-full p-1 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-700"
                >
                  <Icon name="lucide:x" className="size-3.5" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
