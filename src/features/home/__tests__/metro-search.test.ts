import { describe, expect, test } from "vitest";
import { MSAS } from "@convex/lib/data/msas";
import { geolocationProblem, greatCircleKm, nearestMsa } from "../metro-search";

describe("greatCircleKm", () => {
  test("New York to Los Angeles is about 3,940 km", () => {
    const km = greatCircleKm({ lat: 40.7128, lng: -74.006 }, { lat: 34.0522, lng: -118.2437 });
    expect(km).toBeGreaterThan(3900);
    expect(km).toBeLessThan(3980);
  });

  test("a point is 0 km from itself", () => {
    expect(greatCircleKm({ lat: 10, lng: 20 }, { lat: 10, lng: 20 })).toBe(0);
  });
});

describe("nearestMsa", () => {
  test("a position in Times Square picks the New York metro area", () => {
    expect(nearestMsa({ lat: 40.758, lng: -73.9855 }, MSAS)?.msa.name).toMatch(
      /^New York-Newark-Jersey City/,
    );
  });

  test("a position in downtown Austin picks Austin", () => {
    expect(nearestMsa({ lat: 30.2672, lng: -97.7431 }, MSAS)?.msa.name).toMatch(/^Austin/);
  });

  test("distance across the antimeridian counts the short way round", () => {
    const msas = [
      { cbsaCode: "1", name: "East", states: [], lat: 0, lng: 179 },
      { cbsaCode: "2", name: "West", states: [], lat: 0, lng: 100 },
    ];
    expect(nearestMsa({ lat: 0, lng: -179 }, msas)?.msa.name).toBe("East");
  });

  test("no areas, no answer", () => {
    expect(nearestMsa({ lat: 0, lng: 0 }, [])).toBeNull();
  });
});

test("each geolocation failure is explained in words", () => {
  expect(geolocationProblem(1)).toMatch(/refused/);
  expect(geolocationProblem(2)).toMatch(/not available/);
  expect(geolocationProblem(3)).toMatch(/too long/);
  expect(geolocationProblem("unsupported")).toMatch(/cannot share/);
});
