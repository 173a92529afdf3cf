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
    streams: { path: "/dashboard/streams", getHref: () => "/dashboard/streams" },
    liveShops: { path: "/dashboard/liveshops", getHref: () => "/dashboard/liveshops" },
    settings: { path: "/dashboard/settings", getHref: () => "/dashboard/settings" },
  },
} as const;
