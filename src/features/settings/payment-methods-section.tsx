import { useMutation } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useConfirm } from "@/components/ui/use-confirm";
import { errorMessage } from "@/lib/errors";
import { useNow } from "@/lib/use-now";
import { api } from "@convex/_generated/api";
import { MAX_PAYMENT_METHODS } from "@convex/lib/validation";
import { AddCardForm } from "./add-card-form";
import { brandLabel, expiryLabel, isExpired } from "./card-words";
import { SaveStatus } from "./save-status";
import type { Settings } from "./settings-data";
import { SettingsSection } from "./settings-section";

type Card = Settings["paymentMethods"][number];

type Props = { cards: Settings["paymentMethods"]; defaultId: string | undefined };

/** Display-only card references: recognize a card by brand, last 4 digits and expiry; never a number. */
export function PaymentMethodsSection({ cards, defaultId }: Props) {
  const removeCard = useMutation(api.settings.removePaymentMethod);
  const makeDefault = useMutation(api.settings.setDefaultPaymentMethod);
  const [confirm, dialog] = useConfirm();
  const [adding, setAdding] = useState(false);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const full = cards.length >= MAX_PAYMENT_METHODS;
  const now = useNow();

  async function run(card: Card, action: () => Promise<unknown>, done: string) {
    setPendingId(card.id);
    setSaved(null);
    setError(null);
    try {
      await action();
      setSaved(done);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPendingId(null);
    }
  }

  async function remove(card: Card) {
    const name = cardName(card);
    const ok = await confirm({
      title: `Remove ${name}?`,
      description:
        card.id === defaultId && cards.length > 1
          ? "This is your default card; the next saved card becomes the default."
          : "You can add it again later.",
      confirmLabel: "Remove card",
      destructive: true,
    });
    if (!ok) return;
    await run(card, () => removeCard({ paymentMethodId: card.id }), `Saved — ${name} was removed.`);
  }

  return (
    <SettingsSection
      id="payment-methods"
      title="Payment methods"
      icon="lucide:credit-card"
      description="Saved only so you can recognize your cards: the brand, the last 4 digits and the expiry date. LiveLocal never stores card numbers; you pay on the platforms where shows stream."
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {cards.length} of {MAX_PAYMENT_METHODS} cards saved.
      </p>
      {cards.length === 0 ? (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 dark:bg-slate-900 dark:text-slate-300">
          No saved cards yet.
        </p>
      ) : (
        <ul
          aria-label="Saved cards"
          className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {cards.map((card) => {
            const isDefault = card.id === defaultId;
            const expired = isExpired(card.expMonth, card.expYear, now);
            return (
              <li key={card.id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
                <div className="flex min-w-0 flex-1 items-center gap-3">
                  <Icon name="lucide:credit-card" className="size-6 text-slate-500 dark:text-slate-400" />
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span>
                        {brandLabel(card.brand)} <span aria-hidden="true">•••• </span>
                        <span className="sr-only">ending in </span>
                        {card.last4}
                      </span>
                      {isDefault && (
                        <span className="rounded-full bg-primary-50 px-2 py-0.5 text-xs font-semibold text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
                          Default
                        </span>
                      )}
                    </p>
                    <p
                      className={
                        expired
                          ? "text-sm font-medium text-red-700 dark:text-red-300"
                          : "text-sm text-slate-600 dark:text-slate-300"
                      }
                    >
                      {expired ? "Expired" : "Expires"} {expiryLabel(card.expMonth, card.expYear)}
                    </p>
                  </div>
                </div>
                <div className="flex flex-wrap gap-2 sm:justify-end">
                  {!isDefault && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={pendingId !== null}
                      aria-label={`Make ${cardName(card)} the default`}
                      onClick={() =>
                        void run(
                          card,
                          () => makeDefault({ paymentMethodId: card.id }),
                          `Saved — ${cardName(card)} is your default card.`,
                        )
                      }
                    >
                      Make default
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={pendingId !== null}
                    aria-label={`Remove ${cardName(card)}`}
                    onClick={() => void remove(card)}
                  >
                    <Icon name="lucide:trash-2" className="size-4" />
                    Remove
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <SaveStatus message={saved} className="mt-4" />
      {error && (
        <div className="mt-4">
          <FormAlert message={error} />
        </div>
      )}
      <div className="mt-5">
        {adding ? (
          <AddCardForm
            hasCards={cards.length > 0}
            onDone={(message) => {
              setAdding(false);
              setError(null);
              setSaved(message);
            }}
            onCancel={() => setAdding(false)}
          />
        ) : full ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            You have saved {MAX_PAYMENT_METHODS} cards, the most LiveLocal keeps. Remove one to add another.
          </p>
        ) : (
          <Button
            variant="outline"
            onClick={() => {
              setSaved(null);
              setAdding(true);
            }}
          >
            <Icon name="lucide:plus" className="size-4" />
            Add a card
          </Button>
        )}
      </div>
      {dialog}
    </SettingsSection>
  );
}

function cardName(card: Card): string {
  return `${brandLabel(card.brand)} ending in ${card.last4}`;
}
