import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { NotFoundPage } from "@/components/errors/not-found-page";
import { RouteErrorBoundary } from "@/components/errors/route-error-boundary";
import { paths } from "@/config/paths";
import { PageLoading } from "@/components/layout/page-loading";
import { AppShell } from "./frame";
import { withLazyRouteErrors } from "./lazy-route-errors";

/**
 * The app's routes: the frame, then `layout` (the session's module) around the pages. Everything that
 * needs Convex is lazy, the layout included, so the main chunk holds only the router and the frame
 * (decision 037). Tests that mock Convex pass the layout alone.
 */
export const appRoutes = (layout: RouteObject["lazy"]): RouteObject[] => [
  {
    element: <AppShell />,
    errorElement: <RouteErrorBoundary />,
    children: [
      {
        lazy: layout,
        errorElement: <RouteErrorBoundary />,
        // In the frame, while the layout's and the first page's modules load.
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
            path: paths.liveShop.path,
            lazy: async () => ({
              Component: (await import("@/features/shop-page/live-shop-page")).LiveShopPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            path: paths.stream.path,
            lazy: async () => ({
              Component: (await import("@/features/stream-page/stream-page")).StreamPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            // Not under RequireAuth: signed out, the page asks to sign in (docs/product.md#watch-list).
            path: paths.watchList.path,
            lazy: async () => ({
              Component: (await import("@/features/watch-list/watch-list-page")).WatchListPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            path: paths.devInbox.path,
            lazy: async () => ({
              Component: (await import("@/features/dev-inbox/dev-inbox-page")).DevInboxPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            path: paths.explore.streams.path,
            lazy: async () => ({
              Component: (await import("@/features/explore/explore-streams-page")).ExploreStreamsPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            path: paths.explore.liveShops.path,
            lazy: async () => ({
              Component: (await import("@/features/explore/explore-shops-page")).ExploreShopsPage,
            }),
            errorElement: <RouteErrorBoundary />,
          },
          {
            // Every /dashboard path, unknown ones too, asks for sign-in (docs/product.md#screens-and-routes).
            path: paths.dashboard.root.path,
            lazy: async () => ({ Component: (await import("@/features/auth/require-auth")).RequireAuth }),
            errorElement: <RouteErrorBoundary />,
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import("@/features/dashboard/dashboard-page")).DashboardPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.liveShops.path,
                lazy: async () => ({
                  Component: (await import("@/features/shop-editor/live-shops-page")).LiveShopsPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                // "new" outranks the :liveShopId pattern (static segments win in react-router).
                path: paths.dashboard.newLiveShop.path,
                lazy: async () => ({
                  Component: (await import("@/features/shop-editor/new-live-shop-page")).NewLiveShopPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.liveShop.path,
                lazy: async () => ({
                  Component: (await import("@/features/shop-editor/edit-live-shop-page")).EditLiveShopPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.streams.path,
                lazy: async () => ({
                  Component: (await import("@/features/stream-editor/streams-page")).StreamsPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.newStream.path,
                lazy: async () => ({
                  Component: (await import("@/features/stream-editor/new-stream-page")).NewStreamPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.stream.path,
                lazy: async () => ({
                  Component: (await import("@/features/stream-editor/edit-stream-page")).EditStreamPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                path: paths.dashboard.settings.path,
                lazy: async () => ({
                  Component: (await import("@/features/settings/settings-page")).SettingsPage,
                }),
                errorElement: <RouteErrorBoundary />,
              },
              {
                // Every admin path, unknown ones included, answers 403 to non-admins before anything else.
                path: paths.dashboard.admin.root.path,
                lazy: async () => ({
                  Component: (await import("@/features/auth/require-admin")).RequireAdmin,
                }),
                errorElement: <RouteErrorBoundary />,
                children: [
                  {
                    index: true,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/admin-overview-page")).AdminOverviewPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.users.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/users-page")).UsersPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.privacyRequests.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/privacy-requests-page")).PrivacyRequestsPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.privacyCorrection.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/privacy-correction-page"))
                        .PrivacyCorrectionPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.shops.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/admin-shops-page")).AdminShopsPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.shopInsights.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/shop-insights-page")).ShopInsightsPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.streams.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/admin-streams-page")).AdminStreamsPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  {
                    path: paths.dashboard.admin.activity.path,
                    lazy: async () => ({
                      Component: (await import("@/features/admin/admin-activity-page")).AdminActivityPage,
                    }),
                    errorElement: <RouteErrorBoundary />,
                  },
                  { path: "*", element: <NotFoundPage /> },
                ],
              },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/** The icons named only inside pages load with each page's module (scripts/generate-icons.mjs). */
const loadRouteIcons = () => import("@/components/ui/route-icons");

/**
 * The routes as the app runs them: the session's module as the layout, and every lazy route's failed
 * import reaching its error element. The browser's router and the server's render (decision 040) use
 * the same ones, so both draw the same tree.
 */
export function sessionRoutes(): RouteObject[] {
  // The layout route is the session: Convex and the sign-in around the layout.
  const withSession = appRoutes(async () => ({
    Component: (await import("./session-layout")).SessionLayout,
  }));
  // A chunk that fails to load reaches the route's error element (chunk reload, else the error page).
  return withLazyRouteErrors(withSession, loadRouteIcons);
}

export function createAppRouter() {
  return createBrowserRouter(sessionRoutes());
}

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Resolves when the router has loaded the modules of the routes it first matched (its lazy routes), so
 * a hydrating render draws pages rather than their loading fallbacks.
 */
export function routerReady(router: Pick<AppRouter, "state" | "subscribe">): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
