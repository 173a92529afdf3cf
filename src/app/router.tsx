import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { RouteErrorBoundary } from "@/components/errors/route-error-boundary";
import { NotFoundPage } from "@/components/errors/not-found-page";
import { paths } from "@/config/paths";
import { AppLayout } from "./layout";

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorBoundary />,
    children: [
      {
        path: paths.home.path,
        lazy: async () => ({ Component: (await import("@/features/home/home-page")).HomePage }),
        errorElement: <RouteErrorBoundary />,
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
