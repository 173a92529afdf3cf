/**
 * Local mode's own sign-in in page tests on the embedded backend (convex-backend.tsx): the page's
 * requests to `/local-auth/*` answered by the test's backend, as Vite's dev server forwards them in the
 * app, and a session stored as the sign-in page stores it. Render with `LocalSessionProvider`
 * (src/app/provider.tsx) on `convex.client`.
 */
import { LOCAL_SESSION_KEY } from "@/features/auth/local-auth";
import type { ConvexTestBackend, TestPerson } from "./convex-backend";

const realFetch = globalThis.fetch;

/** `fetch` of `path` on the test's backend (for a `vi.stubGlobal("fetch", …)` of the page's requests). */
export function fetchFromBackend(convex: ConvexTestBackend) {
  return (path: string, init?: RequestInit) => realFetch(new URL(path, convex.backend.url), init);
}

/** Signs `person` in as the sign-in page does: the identity kept in localStorage. */
export function storeLocalSession(person: TestPerson): void {
  localStorage.setItem(
    LOCAL_SESSION_KEY,
    JSON.stringify({ sub: person.subject, email: person.email, name: person.name }),
  );
}
