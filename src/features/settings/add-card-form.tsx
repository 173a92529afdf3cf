import { useMutation } from "convex/react";
import { useState, type FormEvent } from "react";
import { Field, controlClass } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { errorMessage } from "@/lib/errors";
import { useNow } from "@/lib/use-now";
import { api } from "@convex/_generated/api";
import {
  CARD_BRAND_LABELS,
  CARD_BRANDS,
  CARD_NUMBER_EXPLANATION,
  fieldErrors,
  MAX_CARD_YEARS_AHEAD,
  newPaymentMethodSchema,
} from "@convex/lib/validation";
import { brandLabel } from "./card-words";

type Draft = { brand: string; last4: string; expMonth: string; expYear: string };
type FieldName = keyof Draft;

const EMPTY: Draft = { brand: "", last4: "", expMonth: "", expYear: "" };
const MONTHS = Array.from({ length: 12 }, (_, index) =>
  new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(Date.UTC(2000, index, 1)),
);

type AddCardFormProps = {
  hasCards: boolean;
  onDone: (message: string) => void;
  onCancel: () => void;
};

/**
 * Adds a card reference. The shared schema checks it as the person types: a pasted full card number is
 * refused at once with the reason, before anything is sent.
 */
export function AddCardForm({ hasCards, onDone, onCancel }: AddCardFormProps) {
  const addCard = useMutation(api.settings.addPaymentMethod);
  const now = useNow();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [makeDefault, setMakeDefault] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<FieldName>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const input = {
    brand: draft.brand,
    last4: draft.last4,
    expMonth: draft.expMonth === "" ? undefined : Number(draft.expMonth),
    expYear: draft.expYear === "" ? undefined : Number(draft.expYear),
  };
  const parsed = newPaymentMethodSchema.safeParse(input);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  // A card number is refused the moment it appears; other mistakes wait until the field is left.
  const errorOf = (field: FieldName) => {
    const error = errors[field];
    if (error === CARD_NUMBER_EXPLANATION || submitted || touched.has(field)) return error;
    return undefined;
  };
  const firstYear = new Date(now).getUTCFullYear();
  const years = Array.from({ length: MAX_CARD_YEARS_AHEAD + 1 }, (_, index) => firstYear + index);

  function update(field: FieldName, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    setServerError(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!parsed.success) return;
    setPending(true);
    setServerError(null);
    try {
      await addCard({ card: parsed.data, ...(hasCards && makeDefault && { makeDefault: true }) });
      onDone(`Saved — ${brandLabel(parsed.data.brand)} ending in ${parsed.data.last4} was added.`);
    } catch (caught) {
      setServerError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  const blur = (field: FieldName) => () =>
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));

  return (
    <form
      noValidate
      aria-labelledby="add-card-heading"
      onSubmit={(event) => void submit(event)}
      className="space-y-4 rounded-xl bg-slate-50 p-4 dark:bg-slate-900"
    >
      <h3 id="add-card-heading" className="font-semibold">
        Add a card
      </h3>
      <p className="flex items-start gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Icon name="lucide:shield-check" className="mt-0.5 size-4 text-primary-700 dark:text-primary-100" />
        Only the brand, the last 4 digits and the expiry date are saved. Never enter the full card number.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Brand" error={errorOf("brand")}>
          {(control) => (
            <select
              {...control}
              name="brand"
              value={draft.brand}
              onChange={(event) => update("brand", event.target.value)}
              onBlur={blur("brand")}
              className={controlClass}
            >
              <option value="">Choose…</option>
              {CARD_BRANDS.map((brand) => (
                <option key={brand} value={brand}>
                  {CARD_BRAND_LABELS[brand]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Last 4 digits" hint="As printed on the card, like 4242." error={errorOf("last4")}>
          {(control) => (
            <input
              {...control}
              name="last4"
              inputMode="numeric"
              autoComplete="off"
              placeholder="4242"
              value={draft.last4}
              onChange={(event) => update("last4", event.target.value)}
              onBlur={blur("last4")}
              className={controlClass}
            />
          )}
        </Field>
        <Field label="Expiry month" error={errorOf("expMonth")}>
          {(control) => (
            <select
              {...control}
              name="expMonth"
              value={draft.expMonth}
              onChange={(event) => update("expMonth", event.target.value)}
              onBlur={blur("expMonth")}
              className={controlClass}
            >
              <option value="">Month…</option>
              {MONTHS.map((month, index) => (
                <option key={month} value={index + 1}>
                  {String(index + 1).padStart(2, "0")} – {month}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Expiry year" error={errorOf("expYear")}>
          {(control) => (
            <select
              {...control}
              name="expYear"
              value={draft.expYear}
              onChange={(event) => update("expYear", event.target.value)}
              onBlur={blur("expYear")}
              className={controlClass}
            >
              <option value="">Year…</option>
              {years.map((year) => (
                <option key={year} value={year}>
                  {year}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {/* Announced at once: a pasted card number is the one mistake that must not wait for a blur. */}
      <p role="alert" className="sr-only">
        {Object.values(errors).includes(CARD_NUMBER_EXPLANATION) ? CARD_NUMBER_EXPLANATION : ""}
      </p>
      {hasCards && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={makeDefault}
            onChange={(event) => setMakeDefault(event.target.checked)}
            className="size-4 accent-primary-700"
          />
          Make this my default card
        </label>
      )}
      <FormAlert message={serverError} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save card"}
        </Button>
        <Button variant="ghost" disabled={pending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
