import { useId, useState, type KeyboardEvent } from "react";
import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { matchMsas } from "@/components/forms/msa-match";
import { paths } from "@/config/paths";
import { MSAS, type MsaRecord } from "@convex/lib/data/msas";
import { geolocationProblem, nearestMsa } from "./metro-search";

const exploreHref = (msa: MsaRecord) =>
  paths.explore.streams.getHref(new URLSearchParams({ msa: msa.cbsaCode }).toString());

/** "Choose your metro area": a type-ahead over the 393 areas, and "Near me" from the browser's position. */
export function MetroPicker() {
  const navigate = useNavigate();
  const id = useId();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const matches = matchMsas(text);
  const expanded = open && matches.length > 0;

  const choose = (msa: MsaRecord) => void navigate(exploreHref(msa));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (matches.length ? (current + step + matches.length) % matches.length : 0));
    } else if (event.key === "Enter" && expanded) {
      event.preventDefault();
      const msa = matches[active];
      if (msa) choose(msa);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };

  const nearMe = () => {
    setProblem(null);
    if (!("geolocation" in navigator)) {
      setProblem(geolocationProblem("unsupported"));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        const nearest = nearestMsa({ lat: position.coords.latitude, lng: position.coords.longitude }, MSAS);
        if (nearest) choose(nearest.msa);
      },
      (error) => {
        setLocating(false);
        setProblem(geolocationProblem(error.code));
      },
      // A city-level fix is enough, and a cached one is fine: this only picks a metro area.
      { enableHighAccuracy: false, maximumAge: 10 * 60_000, timeout: 10_000 },
    );
  };

  return (
    <div className="max-w-xl">
      <label htmlFor={`${id}-input`} className="block text-sm font-medium">
        Metro area
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <input
            id={`${id}-input`}
            type="text"
            role="combobox"
            autoComplete="off"
            placeholder="Start typing a city, e.g. Austin"
            aria-expanded={expanded}
            aria-controls={`${id}-list`}
            aria-autocomplete="list"
            aria-activedescendant={expanded ? `${id}-option-${active}` : undefined}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onFocus={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            className="h-11 w-full rounded-full border border-slate-300 bg-white px-4 text-base dark:border-slate-700 dark:bg-slate-900"
          />
          <ul
            id={`${id}-list`}
            role="listbox"
            aria-label="Metro areas"
            hidden={!expanded}
            className="absolute z-20 mt-2 max-h-80 w-full overflow-auto rounded-2xl border border-slate-200 bg-white py-2 shadow-lg dark:border-slate-800 dark:bg-slate-900"
          >
            {matches.map((msa, index) => (
              <li
                key={msa.cbsaCode}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                // mousedown, not click: the input's blur would close the list before a click lands.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(msa);
                }}
                className="cursor-pointer px-4 py-2 text-sm aria-selected:bg-primary-50 dark:aria-selected:bg-primary-900/40"
              >
                {msa.name}
              </li>
            ))}
          </ul>
        </div>
        <Button variant="outline" size="lg" onClick={nearMe} disabled={locating} className="h-11">
          <Icon name="lucide:locate-fixed" className="size-4" />
          {locating ? "Finding you…" : "Near me"}
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-600 dark:text-slate-300">
        {problem}
      </p>
    </div>
  );
}
