/** Every path of the app, built in one place. */
export const paths = {
  home: { path: "/", getHref: () => "/" },
  signIn: {
    path: "/sign-in",
    /** `redirectTo` is where to return after signing in; the sign-in page only honours same-site paths. */
    getHref: (redirectTo?: string) =>
      redirectTo ? `/sign-in?${new URLSearchParams({ redirect: redirectTo }).toString()}` : "/sign-in",
  },
  explore: {
    /** `search` is an explore filter's query string (convex/lib/explore.ts), kept between the tabs. */
    streams: {
      path: "/explore/streams",
      getHref: (search = "") => (search ? `/explore/streams?${search}` : "/explore/streams"),
    },
    liveShops: {
      path: "/explore/live-shops",
      getHref: (search = "") => (search ? `/explore/live-shops?${search}` : "/explore/live-shops"),
    },
  },
  /** A shop's public page, by slug (preferred) or id. */
  liveShop: {
    path: "/live-shop/:idOrSlug",
    getHref: (idOrSlug: string) => `/live-shop/${encodeURIComponent(idOrSlug)}`,
  },
  stream: {
    path: "/stream/:streamId",
    getHref: (streamId: string) => `/stream/${encodeURIComponent(streamId)}`,
  },
  /** The signed-in person's saved shows and followed shops (signed out: a sign-in prompt). */
  watchList: { path: "/watch-list", getHref: () => "/watch-list" },
  /** The local backend's caught e-mails (decision 036); a deployment says there is none. */
  devInbox: { path: "/dev/inbox", getHref: () => "/dev/inbox" },
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
      /** Shops awaiting verification first, then moderation of every shop. */
      shops: { path: "/dashboard/admin/shops", getHref: () => "/dashboard/admin/shops" },
      /** One shop's insights, as its seller sees them (decision 089). */
      shopInsights: {
        path: "/dashboard/admin/shops/:liveShopId/insights",
        getHref: (liveShopId: string) => `/dashboard/admin/shops/${encodeURIComponent(liveShopId)}/insights`,
      },
      streams: { path: "/dashboard/admin/streams", getHref: () => "/dashboard/admin/streams" },
      privacyRequests: {
        path: "/dashboard/admin/privacy-requests",
        getHref: () => "/dashboard/admin/privacy-requests",
      },
      /** The correction screen of one correction request: the person's data to correct. */
      privacyCorrection: {
        path: "/dashboard/admin/privacy-requests/:requestId",
        getHref: (requestId: string) => `/dashboard/admin/privacy-requests/${encodeURIComponent(requestId)}`,
      },
      /** The activity log: every admin action, who, when, what and why. */
      activity: { path: "/dashboard/admin/activity", getHref: () => "/dashboard/admin/activity" },
    },
  },
} as const;
