/**
 * Page tests on the real seam: the app's own functions (`convex/`) on the embedded backend, in this
 * test file's process on a loopback port, reached through the real `ConvexReactClient`
 * (decision 087). One backend per test file; each test gets its app tables emptied (the reference
 * data, metro areas and categories, stays), a new client and nobody signed in.
 *
 * ```tsx
 * const convex = convexBackend();
 * test("…", async () => {
 *   const seller = await convex.signInAs("seller");
 *   await convex.run((ctx) => insertLiveShop(ctx, { userId: seller.userId, … }));
 *   render(<Page />, { wrapper: convex.wrapper });
 *   expect(await screen.findByText("…")).toBeInTheDocument();
 * });
 * ```
 */
import "./node-typed-arrays";
import { ConvexProviderWithAuth, ConvexReactClient } from "convex/react";
import type { FunctionArgs, FunctionReference, FunctionReturnType } from "convex/server";
import { getFunctionName } from "convex/server";
import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { cleanup, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { WebSocket } from "ws";
import type { Id } from "@convex/_generated/dataModel";
import type { MutationCtx } from "@convex/_generated/server";
import { triggers } from "@convex/model/triggers";
import { insertUser } from "@convex/model/users";
import schema from "@convex/schema";
import { startLocalBackend, type RunningLocalBackend } from "../../local-backend/host/start.ts";
import { adoptComponents } from "../../local-backend/runtime/components.ts";
import { COMPONENTS_CONFIG, FUNCTIONS_DIR } from "./convex-global-setup";

/**
 * The functions folder as the engine loads it. Not the tests, nor convex-test's set-up; auth.config.ts
 * is read as configuration (the local issuer below).
 */
const modules = import.meta.glob([
  "../../convex/**/*.ts",
  "../../convex/**/*.js",
  "!../../convex/**/*.test.ts",
  "!../../convex/**/*.d.ts",
  "!../../convex/test.setup.ts",
  "!../../convex/test.hooks.ts",
]);

const ISSUER = "https://auth.livelocal.localhost";

export type Role = "viewer" | "seller" | "admin";
export type TestPerson = { userId: Id<"users">; subject: string; email: string; name: string };

const NAMES: Record<Role, string> = { viewer: "Jordan Lee", seller: "Sarah Kim", admin: "Alex Admin" };

type AuthState = { identity: { sub: string; email: string; name: string } | null; loading: boolean };

/**
 * The session the app's `ConvexProviderWithAuth` sees, as the local sign-in gives it: tokens signed by
 * the backend for whoever the test signed in.
 */
class TestSession {
  state: AuthState = { identity: null, loading: false };
  private readonly listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  set(state: AuthState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

/** Tables the reference seed fills (metro areas, categories): the same in every test. */
const REFERENCE_TABLES = new Set(["categories", "msas"]);

/** Every app table but the reference ones emptied, in one transaction: what a test starts from. */
async function emptyAppTables(backend: RunningLocalBackend): Promise<void> {
  await backend.core.engine().runner.runInline(null, async (ctx) => {
    for (const table of Object.keys(schema.tables)) {
      if (REFERENCE_TABLES.has(table)) continue;
      for (const doc of await ctx.db.query(table).collect()) await ctx.db.delete(doc._id as never);
    }
  });
}

export type ConvexTestBackend = {
  /** This test's client (new per test). */
  readonly client: ConvexReactClient;
  /** Provides the client with the session `signInAs` sets: wrap what a test renders in it. */
  wrapper: (props: { children: ReactNode }) => ReactNode;
  /** A user row of `role`, not signed in; `key` tells people of one role apart. */
  addUser(role: Role, options?: { key?: string; name?: string }): Promise<TestPerson>;
  /**
   * Signs `who` in: a person, or a role (a new user row of it). `{ row: false }` signs in someone
   * the backend has no row for yet (a first sign-in).
   */
  signInAs(
    who: TestPerson | Role,
    options?: { key?: string; name?: string; row?: boolean },
  ): Promise<TestPerson>;
  signOut(): void;
  /**
   * Resolves once the page's subscription to `ref` with `args` has its answer in the client: the
   * signal a test waits for before it asserts that something is not shown.
   */
  answered<Q extends FunctionReference<"query">>(ref: Q, args: FunctionArgs<Q>): Promise<void>;
  /** The session as still being checked (`useConvexAuth().isLoading`). */
  sessionLoading(): void;
  /** Runs `fn` in one mutation transaction, through the write triggers every mutation has. */
  run<T>(fn: (ctx: MutationCtx) => Promise<T>): Promise<T>;
  /** Calls a public or internal function as `as` (or nobody). Throws its error as the client would. */
  call<F extends FunctionReference<"query" | "mutation" | "action", "public" | "internal">>(
    ref: F,
    args: FunctionArgs<F>,
    as?: TestPerson | null,
  ): Promise<FunctionReturnType<F>>;
  readonly backend: RunningLocalBackend;
};

/**
 * Registers the hooks of a test file that renders against the backend: one backend per file (started
 * once), an empty store and a new client per test.
 */
export function convexBackend(): ConvexTestBackend {
  let backend: RunningLocalBackend | undefined;
  let client: ConvexReactClient | undefined;
  const session = new TestSession();

  const started = () => {
    if (!backend) throw new Error("convexBackend(): the backend is not started (use it inside a test).");
    return backend;
  };

  function useTestAuth() {
    const state = useSyncExternalStore(session.subscribe, () => session.state);
    const identity = state.identity;
    const fetchAccessToken = useCallback(
      async () => (identity ? (await started().issueToken(identity)).token : null),
      [identity],
    );
    return useMemo(
      () => ({ isLoading: state.loading, isAuthenticated: identity !== null, fetchAccessToken }),
      [state.loading, identity, fetchAccessToken],
    );
  }

  beforeAll(async () => {
    // What the run's global set-up made once (convex-global-setup.ts), when it ran.
    const components = inject("convexComponents");
    if (components) adoptComponents(COMPONENTS_CONFIG, components);
    backend = await startLocalBackend({
      port: 0,
      dataDir: null,
      modules: { map: modules as never, schema },
      // The components (rate limiter, e-mail) are bundled from convex.config.ts in this folder.
      functionsDir: FUNCTIONS_DIR,
      authIssuer: ISSUER,
      authKey: inject("convexAuthKey"),
      seed: "reference",
      crons: false,
      watch: false,
      functionLogs: "none",
    });
  }, 60_000);

  afterAll(async () => {
    await backend?.stop();
    backend = undefined;
  });

  beforeEach(async () => {
    await emptyAppTables(started());
    session.set({ identity: null, loading: false });
    client = new ConvexReactClient(started().url, {
      webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
      unsavedChangesWarning: false,
      logger: false,
    });
  });

  afterEach(async () => {
    // Unmounted first: the provider's clean-up still talks to the client.
    cleanup();
    await client?.close();
    client = undefined;
  });

  const testBackend: ConvexTestBackend = {
    get client() {
      if (!client) throw new Error("convexBackend(): no client outside a test.");
      return client;
    },
    get backend() {
      return started();
    },
    wrapper: ({ children }) => (
      <ConvexProviderWithAuth client={testBackend.client} useAuth={useTestAuth}>
        {children}
      </ConvexProviderWithAuth>
    ),
    async addUser(role, { key = role, name = NAMES[role] } = {}) {
      const subject = `test|${key}`;
      const email = `${key}@livelocal.test`;
      const userId = await testBackend.run((ctx) => insertUser(ctx, { clerkId: subject, email, name, role }));
      return { userId, subject, email, name };
    },
    async signInAs(who, { key, name, row = true } = {}) {
      let person: TestPerson;
      if (typeof who !== "string") person = who;
      else if (row) person = await testBackend.addUser(who, { key, name });
      else {
        const id = key ?? who;
        person = {
          userId: "" as Id<"users">,
          subject: `test|${id}`,
          email: `${id}@livelocal.test`,
          name: name ?? NAMES[who],
        };
      }
      session.set({
        identity: { sub: person.subject, email: person.email, name: person.name },
        loading: false,
      });
      return person;
    },
    async answered(ref, args) {
      await waitFor(() => {
        if (testBackend.client.watchQuery(ref, args).localQueryResult() === undefined)
          throw new Error(`${getFunctionName(ref)} has no answer yet`);
      });
    },
    signOut() {
      session.set({ identity: null, loading: false });
    },
    sessionLoading() {
      session.set({ identity: session.state.identity, loading: true });
    },
    async run(fn) {
      const engine = started().core.engine();
      const value: unknown = await engine.runner.runInline(null, (ctx) => fn(triggers.wrapDB(ctx)));
      return value as never;
    },
    async call(ref, args, as = null) {
      const outcome = await started().core.call(getFunctionName(ref), args, {
        identity: as ? { subject: as.subject, email: as.email, name: as.name } : null,
      });
      if (!outcome.success) throw new Error(outcome.errorMessage);
      return outcome.value;
    },
  };
  return testBackend;
}
