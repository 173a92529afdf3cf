/** What `convex codegen` writes, reduced to what this fixture uses (untyped). */
import { anyApi, componentsGeneric } from "convex/server";

export const api = anyApi;
export const internal = anyApi;
export const components = componentsGeneric();
