import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "@/app/app";
import { createAppRouter, routerReady } from "@/app/router";
import { listenForPreloadErrors } from "@/lib/chunk-reload";
import { nextTask } from "@/lib/next-task";
import { PageDataProvider, pageDataState, readEmbeddedPageData, spendPageData } from "@/lib/page-data";
import { clearServerPageMeta } from "@/lib/use-document-meta";
import "./index.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element.");
clearServerPageMeta();

// A page `npm start` rendered to HTML carries the data it was drawn with (decision 040). Its content is
// already shown, so the app starts in short tasks that leave the browser free to answer input between
// them (decision 042): this chunk's evaluation, the router's creation, the warm-up, the hydration.
const embedded = readEmbeddedPageData();
const pageData = embedded && pageDataState(embedded);
if (embedded) await nextTask();

const router = createAppRouter();
// docs/product.md#errors: a chunk that fails to load reloads the page (at most once per 10 s).
listenForPreloadErrors(() => router.state.navigation.state !== "idle");
if (pageData) {
  // Its answers are the first location's only: any other page starts from its own subscriptions.
  const first = router.state.location;
  const unsubscribe = router.subscribe((state) => {
    if (state.location === first) return;
    spendPageData(pageData);
    unsubscribe();
  });
}

const app = (
  <StrictMode>
    <PageDataProvider state={pageData}>
      <App router={router} />
    </PageDataProvider>
  </StrictMode>
);

if (embedded) {
  // Hydrate once the first page's modules are here, so the first render is the server's HTML, not a
  // loading fallback. In a transition, hydration yields to the browser between slices (less blocking).
  await routerReady(router);
  try {
    const { warmUpForHydration } = await import("@/app/hydration-warm-up");
    await warmUpForHydration(embedded);
  } catch {
    // Only a head start: without it (its chunk did not load, say) the page hydrates all the same.
  }
  await nextTask();
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  // A transition renders in slices that yield to the browser between them, instead of one long task
  // that blocks input while the first page is drawn; the "Loading LiveLocal…" text stays until it commits.
  startTransition(() => createRoot(root).render(app));
}
