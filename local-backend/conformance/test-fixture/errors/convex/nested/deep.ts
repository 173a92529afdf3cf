/** A module in a subfolder, with a named handler (error-texts.test.ts). */
import { queryGeneric } from "convex/server";

export const named = queryGeneric({
  args: {},
  handler: () => {
    throw new TypeError("Deep down");
  },
});
