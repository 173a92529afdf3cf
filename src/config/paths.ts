/** Every path of the app, built in one place. */
export const paths = {
  home: { path: "/", getHref: () => "/" },
} as const;
