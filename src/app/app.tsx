import { lazy, Suspense } from "react";
import { RouterProvider } from "react-router-dom";
import { envResult } from "@/config/env";
import { ConfigErrorPage } from "./config-error-page";
import type { AppRouter } from "./router";

// Not needed for the first paint, so it stays out of the initial JavaScript (docs/decisions/016).
const NewBuildNotice = lazy(async () => ({ default: (await import("./new-build-notice")).NewBuildNotice }));

if (!envResult.ok) console.error(new Error(envResult.problem.message));

/**
 * The app around a router: the browser's (src/main.tsx), or a memory router when `npm start` renders
 * a page to HTML (src/entry-server.tsx; decision 040). Both draw this same tree.
 */
export function App({ router }: { router: AppRouter }) {
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
