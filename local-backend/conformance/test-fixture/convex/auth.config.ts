// As the project's auth config does in local mode: trust the local backend's issuer.
const issuer = process.env.LIVELOCAL_LOCAL_AUTH_ISSUER;

export default {
  providers: issuer
    ? [
        {
          type: "customJwt",
          issuer,
          jwks: `${issuer}/.well-known/jwks.json`,
          algorithm: "RS256",
          applicationID: "livelocal-local",
        },
      ]
    : [],
};
