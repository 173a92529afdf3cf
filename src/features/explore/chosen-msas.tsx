import { Icon } from "@/components/ui/icon";
import { MSAS } from "@convex/lib/data/msas";

/** The chosen metro areas inside the filter panel, so a phone's slide-over shows them too. */
export function ChosenMsas({
  msas,
  onRemove,
}: {
  msas: readonly string[];
  onRemove: (cbsaCode: string) => void;
}) {
  if (msas.length === 0) return null;
  return (
    <ul aria-label="Chosen metro areas" className="flex flex-wrap gap-1.5">
      {msas.map((code) => {
        const name = MSAS.find((msa) => msa.cbsaCode === code)?.name ?? code;
        return (
          <li
            key={code}
            className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-2.5 pr-0.5 text-xs dark:bg-slate-800"
          >
            {name}
            <button
              type="button"
              aria-label={`Remove metro area ${name}`}
              onClick={() => onRemove(code)}
              className="rounded-full p-1 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-700"
            >
              <Icon name="lucide:x" className="size-3" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
