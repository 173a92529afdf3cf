import type { ReactNode } from "react";
import { NoticesProvider } from "@/components/notices/notices";
import { WatchListProvider } from "../watch-list-state";

/**
 * What src/app/layout.tsx puts around every page for the save and follow buttons, inside the test
 * backend's provider (`convexBackend().wrapper`, src/test/convex-backend.tsx).
 */
export function WatchListProviders({ children }: { children: ReactNode }) {
  return (
    <NoticesProvider>
      <WatchListProvider>{children}</WatchListProvider>
    </NoticesProvider>
  );
}
