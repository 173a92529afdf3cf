import { useNavigate } from "react-router-dom";
import { envResult } from "@/config/env";
import { AppLayout } from "./layout";
import { AppProvider } from "./provider";

/**
 * The layout route in the browser: Convex with the configured sign-in around the layout. A lazy
 * route of its own, inside the frame, so the Convex client loads beside the page's module instead of in
 * the main chunk (decision 037).
 */
export function SessionLayout() {
  const navigate = useNavigate();
  // App shows the configuration error page instead of the router when the environment is unusable.
  if (!envResult.ok) throw new Error(envResult.problem.message);
  return (
    <AppProvider config={envResult.config} navigate={navigate}>
      <AppLayout />
    </AppProvider>
  );
}
