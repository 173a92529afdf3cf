import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { NotFoundPage } from "@/components/errors/not-found-page";
import { RouteErrorBoundary } from "@/components/errors/route-error-boundary";
import { PageLoading } from "@/components/layout/page-loading";
import { paths } from "@/config/paths";
import { RequireAuth } from "@/features/auth/require-auth";
import { AppLayout } from "./layout";

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorBoundary />,
    // Shown while the first page's lazy module loads, instead of a blank screen.
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        path: paths.home.path,
        lazy: async () => ({ Component: (await import("@/features/home/home-page")).HomePage }),
        errorElement: <RouteErrorBoundary />,
      },
      {
        path: paths.signIn.path,
        // Lazy, so the demo accounts (local mode) stay out of the main chunk.
        lazy: async () => ({ Component: (await import("@/features/auth/sign-in-page")).SignInPage }),
        errorElement: <RouteErrorBoundary />,
      },
      {
        // Every path under /dashboard, unknown ones included, asks for sign-in first (SPEC.md section 2).
        path: paths.dashboard.root.path,
        element: <RequireAuth />,
        errorElement: <RouteErrorBoundary />,
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import("@/features/dashboard/dashboard-page")).DashboardPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
