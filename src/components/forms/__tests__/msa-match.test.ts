import { describe, expect, test } from "vitest";
import { matchMsas } from "../msa-match";

const names = (query: string, options?: Parameters<typeof matchMsas>[1]) =>
  matchMsas(query, options).map((msa) => msa.name);

describe("the metro areas a picker offers", () => {
  // Issue 41: Maine's Portland came first, by the alphabet.
  test("the larger area first: Portland, Oregon before Portland, Maine", () => {
    expect(names("Portland")).toEqual(["Portland-Vancouver-Hillsboro, OR-WA", "Portland-South Portland, ME"]);
  });

  test("typing San offers the eight largest areas starting with it", () => {
    expect(names("San")).toEqual([
      "San Francisco-Oakland-Fremont, CA",
      "San Diego-Chula Vista-Carlsbad, CA",
      "San Antonio-New Braunfels, TX",
      "San Jose-Sunnyvale-Santa Clara, CA",
      "Santa Rosa-Petaluma, CA",
      "Santa Maria-Santa Barbara, CA",
      "San Luis Obispo-Paso Robles, CA",
      "Santa Cruz-Watsonville, CA",
    ]);
  });

  // The Census estimates Puerto Rico apart; its areas have no figure and come after those that do.
  test("an area without a population comes after those with one", () => {
    expect(names("San J")).toEqual(["San Jose-Sunnyvale-Santa Clara, CA", "San Juan-Bayamón-Caguas, PR"]);
  });

  test("names starting with the text come before names containing it, each by size", () => {
    const springs = names("spring", { limit: 20 });
    expect(springs.slice(0, 4)).toEqual([
      "Springfield, MO",
      "Springfield, MA",
      "Springfield, IL",
      "Springfield, OH",
    ]);
    expect(springs.indexOf("Colorado Springs, CO")).toBeGreaterThan(springs.indexOf("Springfield, OH"));
  });

  test("typed words match in any order and ignore commas and case", () => {
    expect(names("tx austin")).toEqual(["Austin-Round Rock-San Marcos, TX"]);
    expect(names("AUSTIN, TX")).toEqual(["Austin-Round Rock-San Marcos, TX"]);
  });

  test("a CBSA code matches its area", () => {
    expect(names("10180")).toEqual(["Abilene, TX"]);
  });

  test("areas already chosen are left out", () => {
    expect(names("Portland", { exclude: ["38900"] })).toEqual(["Portland-South Portland, ME"]);
  });

  test("nothing typed offers nothing; at most the limit", () => {
    expect(names("  ")).toEqual([]);
    expect(names("a", { limit: 5 })).toHaveLength(5);
    expect(names("a")).toHaveLength(8);
  });
});
