/** A component in the app's repo whose functions fail (error-texts.test.ts). */
import { queryGeneric } from "convex/server";
import { ConvexError } from "convex/values";

export const throwConvexError = queryGeneric(() => {
  throw new ConvexError("Boom boom bop");
});

export const throwError = queryGeneric(() => {
  throw new Error("component kaboom");
});
