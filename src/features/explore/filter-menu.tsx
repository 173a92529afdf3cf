import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useDisclosure } from "@/components/layout/use-disclosure";
import { cn } from "@/lib/cn";
import type { ExploreFilter } from "@convex/lib/explore";
import { CategoryFilter } from "./category-filter";
import { PlaceFilter } from "./place-filter";
import type { ExploreFilterUpdate } from "./use-explore-filter";

type FilterMenuProps = { filter: ExploreFilter; onUpdate: (update: ExploreFilterUpdate) => void };

/** How many choices are applied, for the phone's "Filters" button. */
function appliedCount(filter: ExploreFilter) {
  return filter.categories.length + filter.subcategories.length + filter.states.length + filter.msas.length;
}

/**
 * The filter panel: a sidebar on wide screens; on phones the filter menu (docs/product.md#header-and-menus),
 * a slide-over opened by "Filters" that takes turns with the mobile menu through the shared state.
 */
export function FilterMenu({ filter, onUpdate }: FilterMenuProps) {
  // Open, it is a drawer over the results (phones only; wider, the panel is a sidebar, never "open").
  const { open, close, buttonProps, panelRef, panelId } = useDisclosure("explore-filters", { modal: true });
  const count = appliedCount(filter);
  return (
    <>
      <Button {...buttonProps} variant="outline" className="md:hidden">
        <Icon name="lucide:sliders-horizontal" className="size-4" />
        Filters
        {count > 0 && <span className="rounded-full bg-primary-700 px-1.5 text-xs text-white">{count}</span>}
      </Button>
      {open && <div aria-hidden className="fixed inset-x-0 bottom-0 top-16 z-40 bg-slate-950/40 md:hidden" />}
      <div
        ref={panelRef}
        id={panelId}
        aria-label="Filters"
        role={open ? "dialog" : "region"}
        aria-modal={open || undefined}
        className={cn(
          "dark:[color-scheme:dark] max-md:fixed max-md:top-16 max-md:bottom-0 max-md:right-0 max-md:z-50 max-md:w-[min(22rem,90vw)] max-md:overflow-y-auto max-md:bg-white max-md:p-4 max-md:shadow-xl max-md:dark:bg-slate-950",
          !open && "max-md:hidden",
        )}
      >
        <div className="flex items-center justify-between md:hidden">
          <h2 className="text-lg font-semibold">Filters</h2>
          <Button variant="ghost" size="icon" aria-label="Close filters" onClick={() => close()}>
            <Icon name="lucide:x" />
          </Button>
        </div>
        <div className="space-y-6 max-md:mt-4">
          <CategoryFilter filter={filter} onUpdate={onUpdate} />
          <PlaceFilter filter={filter} onUpdate={onUpdate} />
        </div>
        <Button className="mt-6 w-full md:hidden" onClick={() => close()}>
          Show results
        </Button>
      </div>
    </>
  );
}
