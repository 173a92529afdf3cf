/**
 * Registers the icons named only inside routes (scripts/generate-icons.mjs). Loaded with every lazy
 * route, before its page renders (src/app/router.tsx), so the main chunk carries only the frame's.
 */
import { addCollection } from "@iconify/react/offline";
import { ROUTE_ICON_COLLECTIONS } from "./route-icons.generated";

for (const collection of ROUTE_ICON_COLLECTIONS) addCollection(collection);
