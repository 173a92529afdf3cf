/** Every path of the app, built in one place. */
export const paths = {
  home: { path: "/", getHref: () => "/" },
  signIn: {
    path: "/sign-in",
    /** `redirectTo` is where to return after signing in; the sign-in page only honours same-site paths. */
    getHref: (redirectTo?: string) =>
      redirectTo ? `/sign-in?${new URLSearchParams({ redirect: redirectTo }).toString()}` : "/sign-in",
  },
  dashboard: {
    root: { path: "/dashboard", getHref: () => "/dashboard" },
    streams: {
      path: "/dashboard/streams",
      /** `liveShopId` filters the list to one shop; the page reads it back from `?shop=`. */
      getHref: (liveShopId?: string) =>
        liveShopId
          ? `/dashboard/streams?${new URLSearchParams({ shop: liveShopId }).toString()}`
          : "/dashboard/streams",
    },
    newStream: {
      path: "/dashboard/streams/new",
      getHref: (liveShopId?: string) =>
        liveShopId
          ? `/dashboard/streams/new?${new URLSearchParams({ shop: liveShopId }).toString()}`
          : "/dashboard/streams/new",
    },
    stream: {
      path: "/dashboard/streams/:streamId",
      getHref: (streamId: string) => `/dashboard/streams/${encodeURIComponent(streamId)}`,
    },
    liveShops: { path: "/dashboard/liveshops", getHref: () => "/dashboard/liveshops" },
    newLiveShop: { path: "/dashboard/liveshops/new", getHref: () => "/dashboard/liveshops/new" },
    liveShop: {
      path: "/dashboard/liveshops/:liveShopId",
      getHref: (liveShopId: string) => `/dashboard/liveshops/${encodeURIComponent(liveShopId)}`,
    },
    settings: { path: "/dashboard/settings", getHref: () => "/dashboard/settings" },
    admin: {
      root: { path: "/dashboard/admin", getHref: () => "/dashboard/admin" },
      /** The screen keeps its filters in `?role=` and `?email=`. */
      users: { path: "/dashboard/admin/users", getHref: () => "/dashboard/admin/users" },
    },
  },
} as const;
