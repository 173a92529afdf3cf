import { useQuery } from "convex/react";
import { TextField } from "@/components/forms/text-field";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS, slugSchema } from "@convex/lib/validation";

export const TAKEN_MESSAGE = "This address is already taken; try another.";

export type SlugAvailability = "checking" | "available" | "taken" | "unknown";

/** Asks the server, as the owner types, whether a well-formed slug is free (their own shop's counts as free). */
export function useSlugAvailability(slug: string, liveShopId?: Id<"liveShops">): SlugAvailability {
  const debounced = useDebouncedValue(slug.trim());
  const checkable = slugSchema.safeParse(debounced).success;
  const result = useQuery(api.liveShops.checkSlug, checkable ? { slug: debounced, liveShopId } : "skip");
  if (!slugSchema.safeParse(slug.trim()).success) return "unknown";
  if (debounced !== slug.trim() || result === undefined) return "checking";
  return result.available ? "available" : "taken";
}

const AVAILABILITY_WORDS: Record<SlugAvailability, string | null> = {
  checking: "Checking whether this address is free…",
  available: "This address is free.",
  taken: null,
  unknown: null,
};

type SlugFieldProps = {
  value: string;
  onChange: (slug: string) => void;
  error?: string;
  availability: SlugAvailability;
  suggested: boolean;
};

/** The shop's web address; suggested from the name until the owner edits it. */
export function SlugField({ value, onChange, error, availability, suggested }: SlugFieldProps) {
  const words = AVAILABILITY_WORDS[availability];
  return (
    <div>
      <TextField
        label="Web address (slug)"
        name="slug"
        value={value}
        onChange={onChange}
        error={error ?? (availability === "taken" ? TAKEN_MESSAGE : undefined)}
        max={LIMITS.slug}
        autoComplete="off"
        hint={
          <>
            Your shop's page: /live-shop/{value || "your-shop"}
            {suggested && " · suggested from the name"}
          </>
        }
      />
      <p aria-live="polite" className="mt-1 text-sm text-primary-700 dark:text-primary-100">
        {!error && words}
      </p>
    </div>
  );
}
