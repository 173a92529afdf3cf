import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/app";
import { clearServerPageMeta } from "@/lib/use-document-meta";
import "./index.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element.");
clearServerPageMeta();

// A transition renders in slices that yield to the browser between them, instead of one long task
// that blocks input while the first page is drawn; the "Loading LiveLocal…" text stays until it commits.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
