import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEMO_SHOPS, buildSampleStreams } from "../convex/lib/data/demo";
import { escapeXml } from "./generate-demo-art.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const publicDir = path.join(repoRoot, "public");
const artDir = path.join(publicDir, "demo");
const FOLDERS = ["shops", "streams", "products"];

/** Every image path the demo data uses, with the size its SVG must have. */
function expectedImages(): Map<string, { width: number; height: number }> {
  const images = new Map<string, { width: number; height: number }>();
  for (const shop of DEMO_SHOPS) {
    images.set(shop.bannerImageUrl, { width: 1200, height: 400 });
    images.set(shop.logoUrl, { width: 256, height: 256 });
    images.set(shop.coverImageUrl, { width: 800, height: 600 });
    for (const product of shop.products) {
      if (product.imageUrl) images.set(product.imageUrl, { width: 400, height: 400 });
    }
  }
  for (const stream of buildSampleStreams(Date.now())) {
    for (const url of stream.image_urls) images.set(url, { width: 640, height: 360 });
    for (const product of stream.products) images.set(product.image, { width: 400, height: 400 });
  }
  return images;
}

function listSvgs(dir: string): string[] {
  return FOLDERS.flatMap((folder) =>
    existsSync(path.join(dir, folder))
      ? readdirSync(path.join(dir, folder))
          .filter((file) => file.endsWith(".svg"))
          .map((file) => `${folder}/${file}`)
      : [],
  ).sort();
}

describe("demo artwork", () => {
  it("exists under public/ for every image the demo data uses, at the right size", () => {
    const images = expectedImages();
    expect(images.size).toBeGreaterThan(60);
    for (const [url, size] of images) {
      expect(url).toMatch(/^\/demo\/(shops|streams|products)\/[a-z0-9-]+\.svg$/);
      const file = path.join(publicDir, url);
      expect(existsSync(file), `${url} is missing: run npm run art:generate`).toBe(true);
      const svg = readFileSync(file, "utf8");
      expect(
        svg.startsWith(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"`,
        ),
      ).toBe(true);
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(statSync(file).size, url).toBeLessThan(4096);
    }
  });

  it("prints no words but a logo's initials: cards and pages print names and titles beside the pictures", () => {
    for (const url of expectedImages().keys()) {
      if (url.endsWith("-logo.svg")) continue;
      expect(readFileSync(path.join(publicDir, url), "utf8"), url).not.toContain("<text");
    }
  });

  it("holds no files the demo data does not use", () => {
    const used = new Set([...expectedImages().keys()].map((url) => url.replace(/^\/demo\//, "")));
    expect(listSvgs(artDir).filter((file) => !used.has(file))).toEqual([]);
  });

  it("is up to date with the demo data", () => {
    const out = mkdtempSync(path.join(tmpdir(), "livelocal-art-"));
    try {
      execFileSync(process.execPath, [path.join(repoRoot, "scripts/generate-demo-art.mjs"), "--out", out], {
        cwd: repoRoot,
        stdio: "pipe",
      });
      const generated = listSvgs(out);
      expect(generated).toEqual(listSvgs(artDir));
      for (const file of generated) {
        expect(readFileSync(path.join(out, file), "utf8"), `${file} is stale: run npm run art:generate`).toBe(
          readFileSync(path.join(artDir, file), "utf8"),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("art helpers", () => {
  it("escapes XML", () => {
    expect(escapeXml(`Levi's <501> & "Lee"`)).toBe("Levi&apos;s &lt;501&gt; &amp; &quot;Lee&quot;");
  });
});
