import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium, with the flags this machine's closed network needs (never a downloaded browser). */
export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
