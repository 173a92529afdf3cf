/** A component module that cannot be bundled: it imports a file that is not there. */
// @ts-expect-error: the file is missing on purpose (ts-components.test.ts)
import "./not-there";
import { queryGeneric } from "convex/server";

export const hello = queryGeneric({ args: {}, handler: () => "hello" });
