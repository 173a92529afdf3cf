#!/usr/bin/env node
/**
 * Generates the demo artwork in `public/demo/` from the demo data in `convex/lib/data/demo.ts`:
 * per shop a banner (1200×400), a logo (256×256) and a cover (800×600); per sample stream a
 * thumbnail (640×360); per product an image (400×400). Small, offline SVG files: a two-colour
 * gradient from the shop's theme colours and the category's lucide icon large and translucent; only
 * logos carry text (the shop's initials): pages and cards print every other name beside its picture.
 *
 *   node scripts/generate-demo-art.mjs [--out DIR]      (npm run art:generate)
 *
 * The TypeScript demo module is loaded with Vite's `runnerImport` (Vite is already a devDependency),
 * so no TypeScript runner is needed. Stale `.svg` files in the output folders are removed.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runnerImport } from "vite";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = path.join(repoRoot, "public/demo");
const FONT = "Inter,system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * @typedef {typeof import("../convex/lib/data/demo")} DemoModule
 * @typedef {typeof import("../convex/lib/data/categories")} CategoriesModule
 * @typedef {import("../convex/lib/data/demo").DemoShop} DemoShop
 * @typedef {{ theme: string; accent: string; icon: string }} Palette
 */

/**
 * @param {string} text
 * @returns {string}
 */
export function escapeXml(text) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * @param {string} name
 * @returns {string}
 */
function initials(name) {
  const words = name
    .split(/[\s-]+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ""))
    .filter((word) => word && !/^(the|and|of|co)$/i.test(word));
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");
}

/**
 * An SVG document: gradient background, a soft shade for text contrast, the icon, then `content`.
 * @param {{ width: number; height: number; palette: Palette; iconX: number; iconY: number; iconSize: number; content: string }} options
 * @returns {string}
 */
function svgDocument({ width, height, palette, iconX, iconY, iconSize, content }) {
  const scale = Math.round((iconSize / 24) * 100) / 100;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.theme}"/><stop offset="1" stop-color="${palette.accent}"/></linearGradient>`,
    `<linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset=".35" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".35"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#g)"/>`,
    `<g transform="translate(${iconX} ${iconY}) scale(${scale})" opacity=".18">${palette.icon}</g>`,
    `<rect width="${width}" height="${height}" fill="url(#s)"/>`,
    content,
    `</svg>`,
    "",
  ].join("\n");
}

/**
 * Lines of white text starting at baseline `y`.
 * @param {{ lines: string[]; x: number; y: number; size: number; weight?: number; opacity?: number; anchor?: "start" | "middle"; lineHeight?: number }} options
 * @returns {string}
 */
function textBlock({ lines, x, y, size, weight = 700, opacity = 1, anchor = "start", lineHeight = 1.2 }) {
  const attributes = [
    `x="${x}"`,
    `y="${y}"`,
    `fill="#fff"`,
    opacity < 1 ? `fill-opacity="${opacity}"` : "",
    `font-family="${FONT}"`,
    `font-size="${size}"`,
    `font-weight="${weight}"`,
    anchor === "middle" ? `text-anchor="middle"` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const spans = lines
    .map((line, index) =>
      index === 0
        ? escapeXml(line)
        : `<tspan x="${x}" dy="${Math.round(size * lineHeight)}">${escapeXml(line)}</tspan>`,
    )
    .join("");
  return `<text ${attributes}>${spans}</text>`;
}

/**
 * A banner is artwork only: the shop's page and card show its name and headline as text beside it, so
 * a banner that repeated them would say everything twice (decision 032). The category's icon sits
 * large on the right and again, smaller, on the left, clear of the logo the page lays over its corner.
 * @param {DemoShop} _shop
 * @param {Palette} palette
 * @returns {string}
 */
export function shopBanner(_shop, palette) {
  const scale = Math.round((120 / 24) * 100) / 100;
  return svgDocument({
    width: 1200,
    height: 400,
    palette,
    iconX: 780,
    iconY: 32,
    iconSize: 336,
    content: `<g transform="translate(300 150) scale(${scale})" opacity=".12">${palette.icon}</g>`,
  });
}

/**
 * @param {DemoShop} shop
 * @param {Palette} palette
 * @returns {string}
 */
export function shopLogo(shop, palette) {
  return svgDocument({
    width: 256,
    height: 256,
    palette,
    iconX: 40,
    iconY: 40,
    iconSize: 176,
    content: textBlock({ lines: [initials(shop.liveShopName)], x: 128, y: 162, size: 92, anchor: "middle" }),
  });
}

/**
 * Covers, show pictures and product pictures are artwork only, as banners are: every page and card
 * that shows one prints the shop's name, the show's title or the product's name and price beside it,
 * so a picture repeating them said everything twice (issue 41).
 * @param {DemoShop} _shop
 * @param {Palette} palette
 * @returns {string}
 */
export function shopCover(_shop, palette) {
  return svgDocument({ width: 800, height: 600, palette, iconX: 440, iconY: 48, iconSize: 312, content: "" });
}

/**
 * @param {Palette} palette
 * @returns {string}
 */
export function streamThumbnail(palette) {
  const scale = Math.round((96 / 24) * 100) / 100;
  return svgDocument({
    width: 640,
    height: 360,
    palette,
    iconX: 384,
    iconY: 24,
    iconSize: 240,
    content: `<g transform="translate(72 200) scale(${scale})" opacity=".12">${palette.icon}</g>`,
  });
}

/**
 * @param {Palette} palette
 * @returns {string}
 */
export function productImage(palette) {
  return svgDocument({
    width: 400,
    height: 400,
    palette: { ...palette, theme: palette.accent, accent: palette.theme },
    iconX: 100,
    iconY: 100,
    iconSize: 200,
    content: "",
  });
}

/**
 * The body of a lucide icon, drawn in white with a slightly finer stroke.
 * @param {Record<string, { body: string }>} icons
 * @param {string} iconId e.g. `lucide:shirt`
 * @returns {string}
 */
function iconBody(icons, iconId) {
  const name = iconId.replace(/^lucide:/, "");
  const icon = icons[name];
  if (!icon) throw new Error(`lucide icon not found: ${iconId}`);
  return icon.body.replace(/currentColor/g, "#fff").replace(/stroke-width="2"/g, 'stroke-width="1.5"');
}

/**
 * Renders every demo image; keys are paths relative to `public/demo/`.
 * @returns {Promise<Map<string, string>>}
 */
export async function renderDemoArt() {
  const loadOptions = {
    configFile: /** @type {false} */ (false),
    root: repoRoot,
    logLevel: /** @type {const} */ ("error"),
  };
  const [{ module: demo }, { module: reference }] = await Promise.all([
    runnerImport(/** @type {string} */ (path.join(repoRoot, "convex/lib/data/demo.ts")), loadOptions),
    runnerImport(path.join(repoRoot, "convex/lib/data/categories.ts"), loadOptions),
  ]);
  const { DEMO_SHOPS, DEMO_STREAM_LINKS, buildSampleStreams } = /** @type {DemoModule} */ (demo);
  const { CATEGORIES } = /** @type {CategoriesModule} */ (reference);
  const lucide = JSON.parse(
    await readFile(path.join(repoRoot, "node_modules/@iconify-json/lucide/icons.json"), "utf8"),
  );
  /** @type {Record<string, { body: string }>} */
  const icons = lucide.icons;

  /**
   * @param {string | undefined} categoryId
   */
  const categoryOf = (categoryId) => {
    const category = CATEGORIES.find((candidate) => candidate.id === categoryId);
    if (!category) throw new Error(`unknown category ${categoryId ?? "(none)"}`);
    return category;
  };
  /**
   * @param {{ categoryId: string; priority: number }[]} links
   */
  const primaryCategoryId = (links) => [...links].sort((a, b) => a.priority - b.priority)[0]?.categoryId;

  /** @type {Map<string, string>} */
  const files = new Map();
  for (const shop of DEMO_SHOPS) {
    const category = categoryOf(primaryCategoryId(shop.categories));
    const palette = {
      theme: shop.themeColor,
      accent: shop.accentThemeColor,
      icon: iconBody(icons, category.icon),
    };
    files.set(`shops/${shop.slug}-banner.svg`, shopBanner(shop, palette));
    files.set(`shops/${shop.slug}-logo.svg`, shopLogo(shop, palette));
    files.set(`shops/${shop.slug}-cover.svg`, shopCover(shop, palette));
    for (const product of shop.products) {
      files.set(`products/${product.id}.svg`, productImage(palette));
    }
  }
  for (const stream of buildSampleStreams(0)) {
    const links = DEMO_STREAM_LINKS[stream.id];
    const shop = DEMO_SHOPS.find((candidate) => candidate.slug === links?.shopSlug);
    if (!links || !shop) throw new Error(`stream ${stream.id} has no shop`);
    const category = categoryOf(primaryCategoryId(links.categories) ?? primaryCategoryId(shop.categories));
    const palette = {
      theme: shop.themeColor,
      accent: shop.accentThemeColor,
      icon: iconBody(icons, category.icon),
    };
    files.set(`streams/${stream.id}.svg`, streamThumbnail(palette));
  }
  return files;
}

/**
 * @param {string[]} argv
 * @returns {string}
 */
function parseOut(argv) {
  if (argv.length === 0) return DEFAULT_OUT;
  if (argv.length === 2 && argv[0] === "--out" && argv[1]) return path.resolve(argv[1]);
  throw new Error("Usage: node scripts/generate-demo-art.mjs [--out DIR]");
}

async function main() {
  const out = parseOut(process.argv.slice(2));
  const files = await renderDemoArt();
  for (const folder of ["shops", "streams", "products"]) {
    const dir = path.join(out, folder);
    await mkdir(dir, { recursive: true });
    for (const entry of await readdir(dir)) {
      if (entry.endsWith(".svg") && !files.has(`${folder}/${entry}`)) await rm(path.join(dir, entry));
    }
  }
  for (const [file, svg] of files) await writeFile(path.join(out, file), svg);
  console.log(`wrote ${files.size} SVG files to ${path.relative(process.cwd(), out) || "."}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
