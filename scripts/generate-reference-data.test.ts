import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../convex/lib/data/categories";
import { MSA_POPULATIONS } from "../convex/lib/data/msaPopulations";
import { MSAS } from "../convex/lib/data/msas";
import { US_STATES } from "../convex/lib/data/states";
import { parseCsv, parseMsaPopulations } from "./generate-reference-data.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = path.resolve(repoRoot, "../shared/data");
const generatedDir = path.join(repoRoot, "convex/lib/data");
const GENERATED_FILES = ["msas.ts", "msaPopulations.ts", "states.ts", "categories.ts"];

describe("committed reference data", () => {
  it("has every row", () => {
    expect(MSAS).toHaveLength(393);
    expect(US_STATES).toHaveLength(52);
    expect(CATEGORIES).toHaveLength(11);
    const subcategories = CATEGORIES.flatMap((category) => category.subcategories);
    expect(subcategories).toHaveLength(44);
    for (const category of CATEGORIES) expect(category.subcategories).toHaveLength(4);
    const ids = [...CATEGORIES.map((category) => category.id), ...subcategories.map((sub) => sub.id)];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps codes unique and well formed", () => {
    expect(new Set(MSAS.map((msa) => msa.cbsaCode)).size).toBe(393);
    expect(new Set(US_STATES.map((state) => state.code)).size).toBe(52);
    for (const msa of MSAS) {
      expect(msa.cbsaCode).toMatch(/^\d{5}$/);
      expect(Number.isFinite(msa.lat) && Number.isFinite(msa.lng)).toBe(true);
    }
    for (const state of US_STATES) expect(state.fips).toMatch(/^\d{2}$/);
    expect(US_STATES.find((state) => state.code === "AL")?.fips).toBe("01");
  });

  it("spot checks metro areas", () => {
    const newYork = MSAS.find((msa) => msa.cbsaCode === "35620");
    expect(newYork).toEqual({
      cbsaCode: "35620",
      name: "New York-Newark-Jersey City, NY-NJ",
      states: ["NY", "NJ"],
      lat: 40.735425,
      lng: -73.80773,
    });
    expect(MSAS.find((msa) => msa.cbsaCode === "41980")?.name).toBe("San Juan-Bayamón-Caguas, PR");
    expect(MSAS.find((msa) => msa.cbsaCode === "37980")?.states).toEqual(["PA", "NJ", "DE", "MD"]);
    expect(MSAS.find((msa) => msa.cbsaCode === "32420")?.name).toBe("Mayagüez, PR");
  });

  it("uses only known state codes, and every state has a metro area", () => {
    const codes = new Set(US_STATES.map((state) => state.code));
    const used = new Set(MSAS.flatMap((msa) => msa.states));
    for (const code of used) expect(codes.has(code), code).toBe(true);
    expect(used.size).toBe(52);
  });

  it("has a population for every metro area outside Puerto Rico", () => {
    const missing = MSAS.filter((msa) => MSA_POPULATIONS[msa.cbsaCode] === undefined);
    expect(missing.map((msa) => msa.states)).toEqual(Array.from({ length: 6 }, () => ["PR"]));
    expect(MSA_POPULATIONS["35620"]).toBe(19498249); // New York
    expect(MSA_POPULATIONS["38900"]).toBeGreaterThan(MSA_POPULATIONS["38860"] ?? Infinity); // Portland OR, ME
  });

  it("names category icons from the lucide set", () => {
    for (const category of CATEGORIES) expect(category.icon).toMatch(/^lucide:[a-z0-9-]+$/);
  });
});

describe("parseCsv", () => {
  it("handles quoted fields, doubled quotes, line breaks in quotes and CRLF", () => {
    expect(parseCsv('a,b,c\r\n"x, y","say ""hi""",\n"multi\nline",2,3\n')).toEqual([
      ["a", "b", "c"],
      ["x, y", 'say "hi"', ""],
      ["multi\nline", "2", "3"],
    ]);
    expect(parseCsv("\uFEFFa,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(() => parseCsv('a,"b')).toThrow(/unterminated/);
  });
});

describe("parseMsaPopulations", () => {
  const msas = [
    { cbsaCode: "10180", name: "Abilene, TX", states: ["TX"], lat: 0, lng: 0 },
    { cbsaCode: "41980", name: "San Juan-Bayamón-Caguas, PR", states: ["PR"], lat: 0, lng: 0 },
  ];
  const csv = (rows: string) => `cbsa_code,name,population_2023\n${rows}`;

  it("reads each area's population; Puerto Rico's may be missing", () => {
    expect(parseMsaPopulations(csv('10180,"Abilene, TX",181591\n'), msas)).toEqual({ "10180": 181591 });
  });

  it.each([
    ["an unknown code", '10180,"Abilene, TX",1\n99999,"Nowhere, TX",1\n', /unknown CBSA code/],
    ["another name", '10180,"Abilene, KS",1\n', /named/],
    ["a bad number", '10180,"Abilene, TX",lots\n', /bad population/],
    ["a missing area", "", /no population for 10180/],
  ])("refuses %s", (_, rows, error) => {
    expect(() => parseMsaPopulations(csv(rows), msas)).toThrow(error);
  });
});

describe.runIf(existsSync(path.join(sharedData, "msas.csv")))("generator", () => {
  it("reproduces the committed modules exactly from ../shared/data", () => {
    const out = mkdtempSync(path.join(tmpdir(), "livelocal-reference-"));
    try {
      execFileSync(
        process.execPath,
        [path.join(repoRoot, "scripts/generate-reference-data.mjs"), "--from", sharedData, "--out", out],
        { cwd: repoRoot, stdio: "pipe" },
      );
      for (const file of GENERATED_FILES) {
        expect(
          readFileSync(path.join(out, file), "utf8"),
          `${file} is stale: run npm run data:generate`,
        ).toBe(readFileSync(path.join(generatedDir, file), "utf8"));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 30_000);
});
