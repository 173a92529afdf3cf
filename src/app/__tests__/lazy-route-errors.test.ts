import type { RouteObject } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { withLazyRouteErrors } from "../lazy-route-errors";

type Loaded = { Component?: () => unknown };
const load = (route: RouteObject | undefined) => (route?.lazy as unknown as () => Promise<Loaded>)();

describe("withLazyRouteErrors", () => {
  test("loads `alongside` with every lazy route, nested ones too, before the route resolves", async () => {
    const order: string[] = [];
    const Page = () => null;
    const routes = withLazyRouteErrors(
      [{ path: "/", children: [{ path: "a", lazy: () => Promise.resolve({ Component: Page }) }] }],
      async () => {
        await Promise.resolve();
        order.push("icons");
      },
    );
    const loaded = await load(routes[0]?.children?.[0]);
    order.push("route");
    expect(loaded.Component).toBe(Page);
    expect(order).toEqual(["icons", "route"]);
  });

  test("a module or an `alongside` that fails to load becomes an error the route's component throws", async () => {
    const chunkError = new TypeError("Failed to fetch dynamically imported module");
    const [failingModule, failingIcons] = [
      withLazyRouteErrors([{ path: "/", lazy: () => Promise.reject(chunkError) }]),
      withLazyRouteErrors([{ path: "/", lazy: () => Promise.resolve({}) }], () => Promise.reject(chunkError)),
    ];
    for (const routes of [failingModule, failingIcons]) {
      const { Component } = await load(routes[0]);
      expect(() => Component?.()).toThrow(chunkError);
    }
  });
});
