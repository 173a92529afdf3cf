import type { CSSProperties } from "react";
import { contrastRatio } from "@/lib/contrast";

const HEX_COLOR = /^#[0-9a-f]{6}$/i;
const DARK_TEXT = "#0f172a";
const LIGHT_TEXT = "#ffffff";

/** The colour when it is exactly `#rrggbb`; anything else (names, url(), expressions) is dropped. */
export function safeHexColor(value: string | undefined): string | undefined {
  return value !== undefined && HEX_COLOR.test(value) ? value.toLowerCase() : undefined;
}

/** White or near-black, whichever contrasts more with `background`. */
export function readableTextOn(background: string): string {
  return (contrastRatio(background, LIGHT_TEXT) ?? 0) >= (contrastRatio(background, DARK_TEXT) ?? 0)
    ? LIGHT_TEXT
    : DARK_TEXT;
}

/**
 * The shop's colours as CSS custom properties (only valid hex values; the page falls back to the app's
 * own green and blue), each with a text colour that stays readable on it.
 */
export function shopThemeStyle(shop: { themeColor?: string; accentThemeColor?: string }): CSSProperties {
  const style: CSSProperties & Record<`--${string}`, string> = {};
  const theme = safeHexColor(shop.themeColor);
  const accent = safeHexColor(shop.accentThemeColor);
  if (theme) {
    style["--shop-theme"] = theme;
    style["--shop-theme-text"] = readableTextOn(theme);
  }
  if (accent) {
    style["--shop-accent"] = accent;
    style["--shop-accent-text"] = readableTextOn(accent);
  }
  return style;
}
