import type { RouteObject } from "react-router-dom";

type LazyFunction = Extract<NonNullable<RouteObject["lazy"]>, (...args: never[]) => unknown>;

/**
 * Makes a lazy route's failed import (a chunk that did not load) an error thrown by the route's
 * component. React Router keeps a rejected `lazy` as the route's error but renders nothing for it;
 * thrown while rendering, the error reaches the route's error element, which reloads the page for a
 * chunk error (docs/product.md#errors) or shows the error page. `alongside` loads with every lazy route, in
 * parallel with its module (the route icons), and fails it the same way.
 */
export function withLazyRouteErrors(
  routes: RouteObject[],
  alongside: () => Promise<unknown> = () => Promise.resolve(),
): RouteObject[] {
  return routes.map((route) => {
    const lazy = route.lazy;
    const children = route.children ? withLazyRouteErrors(route.children, alongside) : undefined;
    if (typeof lazy !== "function") return (children ? { ...route, children } : route) as RouteObject;
    const wrapped: LazyFunction = async (...args) => {
      try {
        const [loaded] = await Promise.all([lazy(...args), alongside()]);
        return loaded;
      } catch (error) {
        return {
          Component: () => {
            throw error;
          },
        };
      }
    };
    return { ...route, lazy: wrapped, ...(children ? { children } : {}) } as RouteObject;
  });
}
