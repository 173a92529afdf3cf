/**
 * Once per test run, for the page tests on the embedded backend (convex-backend.tsx): what every
 * backend of the run can share instead of making its own at start, given to the workers with Vitest's
 * `provide`: the key pair that signs local tokens and the bundles of the app's Convex components.
 */
import path from "node:path";
import type { TestProject } from "vitest/node";
import { generateLocalAuthKey, type LocalAuthKey } from "../../local-backend/api/auth.ts";
import { shareComponents, type SharedComponents } from "../../local-backend/runtime/components.ts";

declare module "vitest" {
  export interface ProvidedContext {
    convexAuthKey: LocalAuthKey;
    convexComponents: SharedComponents;
  }
}

export const FUNCTIONS_DIR = path.resolve(import.meta.dirname, "../../convex");
export const COMPONENTS_CONFIG = path.join(FUNCTIONS_DIR, "convex.config.ts");

export default async function setup(project: TestProject): Promise<void> {
  project.provide("convexAuthKey", await generateLocalAuthKey());
  // The bundles live in this (the main) process's cache folder until the run ends.
  project.provide("convexComponents", await shareComponents(COMPONENTS_CONFIG, path.dirname(FUNCTIONS_DIR)));
}
