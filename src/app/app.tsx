import { RouterProvider } from "react-router-dom";
import { envResult } from "@/config/env";
import { ConfigErrorPage } from "./config-error-page";
import { AppProvider } from "./provider";
import { createAppRouter } from "./router";

const router = createAppRouter();

if (!envResult.ok) console.error(new Error(envResult.problem.message));

export function App() {
  if (!envResult.ok) return <ConfigErrorPage problem={envResult.problem} />;
  return (
    <AppProvider config={envResult.config} navigate={(to, options) => router.navigate(to, options)}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
