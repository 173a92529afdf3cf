import { useState } from "react";
import { controlClass } from "@/components/forms/field";
import { Icon } from "@/components/ui/icon";
import { MAX_SELECTED_MSAS } from "@convex/lib/constants";
import { MSAS } from "@convex/lib/data/msas";
import { US_STATES } from "@convex/lib/data/states";
import { addMsa, addState, removeMsa, removeState, type ExploreFilter } from "@convex/lib/explore";
import type { ExploreFilterUpdate } from "./use-explore-filter";
import { ChosenMsas } from "./chosen-msas";
import { MsaSearch } from "./msa-search";

type PlaceFilterProps = { filter: ExploreFilter; onUpdate: (update: ExploreFilterUpdate) => void };

const msasOf = (state: string) => MSAS.filter((msa) => msa.states.includes(state));

/**
 * States, then their metro areas, plus a type-ahead over every metro area. At most six metro areas:
 * the seventh is refused with addMsa's own sentence, shown until there is room again.
 */
export function PlaceFilter({ filter, onUpdate }: PlaceFilterProps) {
  const [limitMessage, setLimitMessage] = useState<string>();

  function chooseMsa(cbsaCode: string) {
    const { error } = addMsa(filter, cbsaCode, MSAS);
    setLimitMessage(error);
    if (!error) onUpdate((current) => addMsa(current, cbsaCode, MSAS).filter);
  }
  function update(change: ExploreFilterUpdate) {
    setLimitMessage(undefined);
    onUpdate(change);
  }

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">Places</legend>
      <div>
        <label htmlFor="explore-state" className="text-sm font-medium">
          Add a state
        </label>
        <select
          id="explore-state"
          className={controlClass}
          value=""
          onChange={(event) => update((current) => addState(current, event.target.value, MSAS))}
        >
          <option value="">Choose a state…</option>
          {US_STATES.filter((state) => !filter.states.includes(state.code)).map((state) => (
            <option key={state.code} value={state.code}>
              {state.name}
            </option>
          ))}
        </select>
      </div>
      {filter.states.map((code) => {
        const name = US_STATES.find((state) => state.code === code)?.name ?? code;
        return (
          <div key={code} className="rounded-lg border border-slate-200 p-2 dark:border-slate-700">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium">{name}</p>
              <button
                type="button"
                aria-label={`Remove state ${name}`}
                onClick={() => update((current) => removeState(current, code, MSAS))}
                className="rounded-full p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-800"
              >
                <Icon name="lucide:x" className="size-4" />
              </button>
            </div>
            <ul aria-label={`Metro areas in ${name}`} className="mt-1 max-h-48 overflow-y-auto">
              {msasOf(code).map((msa) => (
                <li key={msa.cbsaCode}>
                  <label className="flex items-center gap-2 py-1 text-sm text-slate-700 dark:text-slate-300">
                    <input
                      type="checkbox"
                      className="size-4 shrink-0 accent-primary-600"
                      checked={filter.msas.includes(msa.cbsaCode)}
                      onChange={() =>
                        filter.msas.includes(msa.cbsaCode)
                          ? update((current) => removeMsa(current, msa.cbsaCode))
                          : chooseMsa(msa.cbsaCode)
                      }
                    />
                    {msa.name}
                  </label>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <MsaSearch selected={filter.msas} onChoose={chooseMsa} />
      {limitMessage && filter.msas.length >= MAX_SELECTED_MSAS && (
        <p
          role="alert"
          className="flex items-center gap-2 text-sm font-medium text-red-700 dark:text-red-300"
        >
          <Icon name="lucide:circle-alert" className="size-4" />
          {limitMessage}
        </p>
      )}
      <ChosenMsas msas={filter.msas} onRemove={(code) => update((current) => removeMsa(current, code))} />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {filter.msas.length} of {MAX_SELECTED_MSAS} metro areas chosen
      </p>
    </fieldset>
  );
}
