import { readdirSync } from "node:fs";
import js from "@eslint/js";
import convexPlugin from "@convex-dev/eslint-plugin";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The embedded backend's layers, lowest first (docs/style.md#layers-with-a-direction): a folder
 * imports only from itself and the folders listed before it; folders on one line are peers that do
 * not import each other. `conformance/` holds the tests that drive a running backend.
 */
const ENGINE_LAYERS = [
  ["core"],
  ["values"],
  ["storage"],
  ["database"],
  ["runtime"],
  ["scheduler", "live"],
  ["api"],
  ["cli"],
  ["host"],
];

function engineLayerRules() {
  return ENGINE_LAYERS.flatMap((peers, level) =>
    peers.map((folder) => {
      const forbidden = [
        ...peers.filter((peer) => peer !== folder),
        ...ENGINE_LAYERS.slice(level + 1).flat(),
        "conformance",
      ];
      return {
        files: [`local-backend/${folder}/**/*.ts`],
        ignores: ["**/*.test.ts"],
        rules: {
          "no-restricted-imports": [
            "error",
            {
              patterns: [
                {
                  regex: `^\\.{1,2}/(?:\\.\\./)*(?:${forbidden.join("|")})/`,
                  message: `local-backend/${folder} sits below that folder: move the shared piece down, or pass it in from above.`,
                },
              ],
            },
          ],
        },
      };
    }),
  );
}

/** Features do not import each other (docs/style.md#feature-folders): what two share moves down to components/ or lib/. */
function featureIsolationRules() {
  const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return features.map((feature) => {
    const others = features.filter((other) => other !== feature);
    return {
      files: [`src/features/${feature}/**/*.{ts,tsx}`],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                regex: `^(?:@/features/|(?:\\.\\./)+(?:features/)?)(?:${others.join("|")})(?:/|$)`,
                message: `src/features/${feature} must not import another feature: move the shared piece to src/components or src/lib.`,
              },
            ],
          },
        ],
      },
    };
  });
}

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "convex/_generated",
      ".local-backend",
      "test-results",
      "coverage",
      "local-backend/runtime/isolate/heap-guard/build",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  ...convexPlugin.configs.recommended,
  {
    files: ["convex/**/*.ts"],
    rules: {
      // Table queries use indexes; `.filter` on a query scans (docs/style.md#indexed-bounded-reads).
      "@convex-dev/no-filter-in-query": "error",
      // Public functions get their caller from the builders (docs/style.md#callers-come-from-the-builders).
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/_generated/server"],
              importNames: ["query", "mutation", "action"],
              message:
                "Use the builders in convex/functions.ts, which give every public function its caller.",
            },
            {
              // Every write must pass the triggers that keep derived tables in step (decision 012).
              group: ["**/_generated/server"],
              importNames: ["internalMutation"],
              message: "Use internalMutation from convex/functions.ts, which applies the write triggers.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["convex/functions.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // convex/model/ holds the only writers (README's layout): defaults, timestamps, uniqueness and
    // the derived tables stay in one place. Tests write fixtures directly.
    files: ["convex/**/*.ts"],
    ignores: ["convex/model/**", "convex/**/*.test.ts", "convex/testing/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.object.property.name='db'][callee.property.name=/^(insert|patch|replace|delete)$/]",
          message: "Write through a helper in convex/model/, the only writers.",
        },
      ],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...engineLayerRules(),
  ...featureIsolationRules(),
  {
    // One-way imports (docs/style.md#feature-folders): app → features → components, lib; shared code below.
    files: ["src/components/**/*.{ts,tsx}", "src/lib/**/*.{ts,tsx}", "src/config/**/*.{ts,tsx}"],
    ignores: ["**/__tests__/**", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/features/*", "@/app/*"],
              message: "Shared code must not import a feature or the app; move the piece down instead.",
            },
          ],
        },
      ],
    },
  },
);
