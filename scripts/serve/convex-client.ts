import { ConvexHttpClient } from "convex/browser";

/**
 * A `ConvexHttpClient` for the URL `convexUrl()` names at each call, made again only when that URL
 * changes (the local backend's port is known once it listens).
 */
export function httpClientFor(convexUrl: () => string): () => ConvexHttpClient {
  let current: { url: string; client: ConvexHttpClient } | null = null;
  return () => {
    const url = convexUrl();
    if (current?.url !== url) current = { url, client: new ConvexHttpClient(url) };
    return current.client;
  };
}
