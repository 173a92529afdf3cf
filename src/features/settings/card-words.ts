import { CARD_BRAND_LABELS, CARD_BRANDS, cardExpiryProblem, type CardBrand } from "@convex/lib/validation";

function isCardBrand(brand: string): brand is CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(brand);
}

/** "Visa"; a brand saved before the list existed is shown as written. */
export function brandLabel(brand: string): string {
  return isCardBrand(brand) ? CARD_BRAND_LABELS[brand] : brand;
}

/** "12/2028" */
export function expiryLabel(expMonth: number, expYear: number): string {
  return `${String(expMonth).padStart(2, "0")}/${expYear}`;
}

export function isExpired(expMonth: number, expYear: number, now: number): boolean {
  return cardExpiryProblem(expMonth, expYear, now)?.includes("expired") ?? false;
}
