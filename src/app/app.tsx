import { lazy, Suspense } from "react";
import { RouterProvider } from "react-router-dom";
import { envResult } from "@/config/env";
import { listenForPreloadErrors } from "@/lib/chunk-reload";
import { ConfigErrorPage } from "./config-error-page";
import { createAppRouter } from "./router";

const router = createAppRouter();
// SPEC.md section 8: a chunk that fails to load reloads the page (at most once per 10 s).
listenForPreloadErrors(() => router.state.navigation.state !== "idle");

// Not needed for the first paint, so it stays out of the initial JavaScript (docs/decisions/016).
const NewBuildNotice = lazy(async () => ({ default: (await import("./new-build-notice")).NewBuildNotice }));

if (!envResult.ok) console.error(new Error(envResult.problem.message));

export function App() {
  if (!envResult.ok) return <ConfigErrorPage problem={envResult.problem} />;
  // Convex and the sign-in come with the layout route's lazy module (./session-layout.tsx).
  return (
    <>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <NewBuildNotice router={router} />
      </Suspense>
    </>
  );
}
