#!/usr/bin/env node
/**
 * Turns the shared reference data (metro areas, states, categories) into committed TypeScript modules
 * under `convex/lib/data/`, so the project builds and runs without the `../shared` folder.
 *
 *   node scripts/generate-reference-data.mjs [--from DIR] [--out DIR]
 *
 * `--from` defaults to `../shared/data` beside the repository; `--out` to `convex/lib/data`. The metro
 * areas' populations come from this repository's `scripts/data/msa-population-2023.csv` (decision 063).
 * The output is formatted with prettier and the repository's `.prettierrc.json`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as prettier from "prettier";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_FROM = path.resolve(repoRoot, "../shared/data");
const DEFAULT_OUT = path.resolve(repoRoot, "convex/lib/data");
const SCRIPT_NAME = "scripts/generate-reference-data.mjs";
const POPULATION_FILE = path.join(repoRoot, "scripts/data/msa-population-2023.csv");

/**
 * Parses CSV text (RFC 4180): comma separated, fields optionally wrapped in double quotes, a doubled
 * quote inside a quoted field stands for one quote, quoted fields may hold commas and line breaks.
 * Accepts `\n` and `\r\n` line endings and a UTF-8 byte-order mark; a trailing newline adds no row.
 * @param {string} text
 * @returns {string[][]}
 */
export function parseCsv(text) {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let field = "";
  let inQuotes = false;
  let fieldStarted = false;
  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    if (inQuotes) {
      if (char === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += char;
      }
      continue;
    }
    if (char === '"') {
      if (field !== "")
        throw new Error(`CSV: unexpected quote inside an unquoted field (row ${rows.length + 1})`);
      inQuotes = true;
      fieldStarted = true;
    } else if (char === ",") {
      row.push(field);
      field = "";
      fieldStarted = true;
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && input[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      fieldStarted = false;
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (inQuotes) throw new Error("CSV: unterminated quoted field");
  if (fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Parses CSV with a header row into records, checking the header is exactly `columns`.
 * @param {string} text
 * @param {readonly string[]} columns
 * @param {string} fileName
 * @returns {Record<string, string>[]}
 */
function parseCsvRecords(text, columns, fileName) {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.join(",") !== columns.join(",")) {
    throw new Error(
      `${fileName}: expected header ${columns.join(",")}, got ${header?.join(",") ?? "nothing"}`,
    );
  }
  return rows.map((cells, index) => {
    if (cells.length !== columns.length) {
      throw new Error(`${fileName}: row ${index + 2} has ${cells.length} fields, expected ${columns.length}`);
    }
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]));
  });
}

/**
 * @param {string} value
 * @param {string} what
 * @returns {number}
 */
function toNumber(value, what) {
  if (!/^-?\d+(\.\d+)?$/.test(value))
    throw new Error(`${what}: not a decimal number: ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
function requireString(value, what) {
  if (typeof value !== "string" || value.trim() === "")
    throw new Error(`${what}: expected a non-empty string`);
  return value;
}

/**
 * @typedef {{ cbsaCode: string; name: string; states: string[]; lat: number; lng: number }} MsaRecord
 * @typedef {{ code: string; name: string; fips: string }} UsState
 * @typedef {{ id: string; label: string; description: string }} SubcategoryRecord
 * @typedef {{ id: string; label: string; description: string; icon: string; subcategories: SubcategoryRecord[] }} CategoryRecord
 */

/**
 * @param {string} text
 * @returns {UsState[]}
 */
export function parseStates(text) {
  const states = parseCsvRecords(text, ["postal_code", "name", "fips"], "us-states.csv").map((row) => {
    const code = row.postal_code ?? "";
    const fips = row.fips ?? "";
    if (!/^[A-Z]{2}$/.test(code)) throw new Error(`us-states.csv: bad postal code ${JSON.stringify(code)}`);
    if (!/^\d{2}$/.test(fips)) throw new Error(`us-states.csv: bad FIPS code ${JSON.stringify(fips)}`);
    return { code, name: requireString(row.name, `us-states.csv ${code} name`), fips };
  });
  assertUnique(
    states.map((state) => state.code),
    "us-states.csv postal codes",
  );
  return states;
}

/**
 * @param {string} text
 * @param {ReadonlySet<string>} stateCodes
 * @returns {MsaRecord[]}
 */
export function parseMsas(text, stateCodes) {
  const msas = parseCsvRecords(text, ["cbsa_code", "name", "states", "lat", "lng"], "msas.csv").map((row) => {
    const cbsaCode = row.cbsa_code ?? "";
    if (!/^\d{5}$/.test(cbsaCode)) throw new Error(`msas.csv: bad CBSA code ${JSON.stringify(cbsaCode)}`);
    const states = (row.states ?? "").split("-");
    for (const state of states) {
      if (!stateCodes.has(state))
        throw new Error(`msas.csv ${cbsaCode}: unknown state ${JSON.stringify(state)}`);
    }
    const lat = toNumber(row.lat ?? "", `msas.csv ${cbsaCode} lat`);
    const lng = toNumber(row.lng ?? "", `msas.csv ${cbsaCode} lng`);
    if (lat < -90 || lat > 90 || lng < -180 || lng > 180)
      throw new Error(`msas.csv ${cbsaCode}: out of range`);
    return { cbsaCode, name: requireString(row.name, `msas.csv ${cbsaCode} name`), states, lat, lng };
  });
  assertUnique(
    msas.map((msa) => msa.cbsaCode),
    "msas.csv CBSA codes",
  );
  return msas;
}

/**
 * The Census Bureau's July 1, 2023 population estimate of each metro area (decision 063), checked
 * against msas.csv: every code known and named alike, and every area outside Puerto Rico (which the
 * Census estimates apart) has one.
 * @param {string} text
 * @param {readonly MsaRecord[]} msas
 * @returns {Record<string, number>}
 */
export function parseMsaPopulations(text, msas) {
  const byCode = new Map(msas.map((msa) => [msa.cbsaCode, msa]));
  /** @type {Record<string, number>} */
  const populations = {};
  for (const row of parseCsvRecords(
    text,
    ["cbsa_code", "name", "population_2023"],
    "msa-population-2023.csv",
  )) {
    const code = row.cbsa_code ?? "";
    const msa = byCode.get(code);
    if (!msa) throw new Error(`msa-population-2023.csv: unknown CBSA code ${JSON.stringify(code)}`);
    if (row.name !== msa.name)
      throw new Error(`msa-population-2023.csv ${code}: named ${JSON.stringify(row.name)}, not ${msa.name}`);
    const population = Number(row.population_2023);
    if (!Number.isSafeInteger(population) || population <= 0)
      throw new Error(
        `msa-population-2023.csv ${code}: bad population ${JSON.stringify(row.population_2023)}`,
      );
    if (code in populations) throw new Error(`msa-population-2023.csv: duplicate ${code}`);
    populations[code] = population;
  }
  for (const msa of msas) {
    if (!(msa.cbsaCode in populations) && !msa.states.includes("PR"))
      throw new Error(`msa-population-2023.csv: no population for ${msa.cbsaCode} ${msa.name}`);
  }
  return populations;
}

/**
 * @param {string} text
 * @returns {CategoryRecord[]}
 */
export function parseCategories(text) {
  /** @type {unknown} */
  const data = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error("categories.json: expected an array");
  /** @type {CategoryRecord[]} */
  const categories = data.map((/** @type {Record<string, unknown>} */ category, index) => {
    const id = requireString(category.id, `categories.json [${index}].id`);
    if (!Array.isArray(category.subcategories)) throw new Error(`categories.json ${id}: no subcategories`);
    return {
      id,
      label: requireString(category.label, `categories.json ${id}.label`),
      description: requireString(category.description, `categories.json ${id}.description`),
      icon: requireString(category.icon, `categories.json ${id}.icon`),
      subcategories: category.subcategories.map((/** @type {Record<string, unknown>} */ sub, subIndex) => {
        const subId = requireString(sub.id, `categories.json ${id}.subcategories[${subIndex}].id`);
        return {
          id: subId,
          label: requireString(sub.label, `categories.json ${subId}.label`),
          description: requireString(sub.description, `categories.json ${subId}.description`),
        };
      }),
    };
  });
  const ids = categories.flatMap((category) => [category.id, ...category.subcategories.map((sub) => sub.id)]);
  for (const id of ids) {
    if (!/^[a-z][a-z0-9_]*$/.test(id) || id.length > 50) throw new Error(`categories.json: bad id ${id}`);
  }
  assertUnique(ids, "categories.json ids");
  return categories;
}

/**
 * @param {string[]} values
 * @param {string} what
 */
function assertUnique(values, what) {
  const seen = new Set();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`${what}: duplicate ${value}`);
    seen.add(value);
  }
}

/**
 * @param {string} source
 * @returns {string}
 */
function header(source) {
  return `/*
 * Generated by ${SCRIPT_NAME} — do not edit.
 * Source: ${source} (see ../shared/data/README.md). Regenerate with \`npm run data:generate\`.
 */
`;
}

/**
 * Reads the three source files and returns each generated module's file name and formatted text.
 * @param {string} fromDir
 * @returns {Promise<Record<string, string>>}
 */
export async function renderReferenceModules(fromDir) {
  const [msasCsv, statesCsv, categoriesJson] = await Promise.all(
    ["msas.csv", "us-states.csv", "categories.json"].map((file) =>
      readFile(path.join(fromDir, file), "utf8"),
    ),
  );
  const states = parseStates(statesCsv ?? "");
  const msas = parseMsas(msasCsv ?? "", new Set(states.map((state) => state.code)));
  const categories = parseCategories(categoriesJson ?? "");
  const populations = parseMsaPopulations(await readFile(POPULATION_FILE, "utf8"), msas);

  const sources = {
    "msas.ts": `${header("msas.csv")}
/** A US Metropolitan Statistical Area (OMB delineation of July 2023); \`states\` lists the principal state first. */
export type MsaRecord = { cbsaCode: string; name: string; states: readonly string[]; lat: number; lng: number };

/** All ${msas.length} metropolitan areas, sorted by name. */
export const MSAS: readonly MsaRecord[] = ${JSON.stringify(msas)};
`,
    "msaPopulations.ts": `/*
 * Generated by ${SCRIPT_NAME} — do not edit.
 * Source: scripts/data/msa-population-2023.csv (decision 063). Regenerate with \`npm run data:generate\`.
 */

/**
 * Each metro area's population, the Census Bureau's estimate for July 1, 2023, by CBSA code: what
 * ranks the metro areas a buyer's typing matches. The ${msas.length - Object.keys(populations).length} areas in Puerto Rico, which the Census
 * estimates apart, have none.
 */
export const MSA_POPULATIONS: Readonly<Record<string, number>> = ${JSON.stringify(populations)};
`,
    "states.ts": `${header("us-states.csv")}
/** A US state, DC or Puerto Rico: postal code, name and 2-digit FIPS code. */
export type UsState = { code: string; name: string; fips: string };

/** All ${states.length} states (the 50 states, DC and Puerto Rico), sorted by name. */
export const US_STATES: readonly UsState[] = ${JSON.stringify(states)};
`,
    "categories.ts": `${header("categories.json")}
export type SubcategoryRecord = { id: string; label: string; description: string };

/** A top-level product category; \`icon\` is an Iconify id from the lucide set. */
export type CategoryRecord = {
  id: string;
  label: string;
  description: string;
  icon: string;
  subcategories: readonly SubcategoryRecord[];
};

/** The ${categories.length} categories in display order, each with its subcategories. */
export const CATEGORIES: readonly CategoryRecord[] = ${JSON.stringify(categories)};
`,
  };

  const options = (await prettier.resolveConfig(path.join(repoRoot, ".prettierrc.json"))) ?? {};
  /** @type {Record<string, string>} */
  const formatted = {};
  for (const [file, source] of Object.entries(sources)) {
    formatted[file] = await prettier.format(source, { ...options, parser: "typescript" });
  }
  return formatted;
}

/**
 * @param {string[]} argv
 * @returns {{ from: string; out: string }}
 */
function parseArgs(argv) {
  let from = DEFAULT_FROM;
  let out = DEFAULT_OUT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === "--from" || arg === "--out") && value) {
      if (arg === "--from") from = path.resolve(value);
      else out = path.resolve(value);
      i++;
    } else {
      throw new Error(
        `Usage: node ${SCRIPT_NAME} [--from DIR] [--out DIR] (unexpected ${JSON.stringify(arg)})`,
      );
    }
  }
  return { from, out };
}

async function main() {
  const { from, out } = parseArgs(process.argv.slice(2));
  const modules = await renderReferenceModules(from);
  await mkdir(out, { recursive: true });
  for (const [file, text] of Object.entries(modules)) {
    await writeFile(path.join(out, file), text);
    console.log(`wrote ${path.relative(process.cwd(), path.join(out, file)) || file}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
