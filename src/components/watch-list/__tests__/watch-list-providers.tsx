import type { ReactNode } from "react";
import { NoticesProvider } from "@/components/notices/notices";
import { WatchListProvider } from "../watch-list-state";

/**
 * What src/app/layout.tsx puts around every page for the save and follow buttons. Tests that render
 * them mock "convex/react" with the session too:
 * `vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }))`.
 */
export function WatchListProviders({ children }: { children: ReactNode }) {
  return (
    <NoticesProvider>
      <WatchListProvider>{children}</WatchListProvider>
    </NoticesProvider>
  );
}
