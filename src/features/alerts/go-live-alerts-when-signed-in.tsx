import { useConvexAuth } from "convex/react";
import { Component, lazy, Suspense, type ReactNode } from "react";

// Loaded only once someone is signed in, so it stays out of the initial JavaScript (decision 016).
const GoLiveAlerts = lazy(async () => ({ default: (await import("./go-live-alerts")).GoLiveAlerts }));

/** Go-live alerts (issue 8) while someone is signed in; mounted once, inside the NoticesProvider. */
export function GoLiveAlertsWhenSignedIn() {
  const { isAuthenticated } = useConvexAuth();
  if (!isAuthenticated) return null;
  return (
    <QuietBoundary>
      <Suspense fallback={null}>
        <GoLiveAlerts />
      </Suspense>
    </QuietBoundary>
  );
}

/**
 * Alerts work in the background: if their module cannot load (once the chunk-reload window is used up)
 * or they fail, the failure is logged and the page goes on, instead of becoming the layout's error page.
 */
class QuietBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error("Go-live alerts stopped in this tab:", error);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
