/**
 * Convex queries that start from the page's embedded answers (decision 040). Each hook subscribes as
 * `useQuery` does and returns the live answer once it has one; until then, the answer the server read
 * for this query and these arguments when it rendered the page, so the browser's first render is the
 * server's HTML and the page is live from there (as Convex's `usePreloadedQuery`, keyed by query and
 * arguments so one page's many queries need no props). On the server, the hooks record what a render
 * asks for, so the next pass has it.
 */
import { usePaginatedQuery } from "convex-helpers/react";
import { useQuery } from "convex/react";
import {
  getFunctionName,
  type FunctionArgs,
  type FunctionReference,
  type FunctionReturnType,
  type PaginationOptions,
  type PaginationResult,
} from "convex/server";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { useMemo, useState } from "react";
import { pageQueryKey, usePageData } from "./page-data";

type PublicQuery = FunctionReference<"query", "public">;

type Embedded = { value: unknown; json: string } | undefined;

/** The embedded answer for `query` with `args`, recorded on the server; undefined when there is none. */
function useEmbeddedAnswer(name: string, args: Record<string, unknown>): Embedded {
  const page = usePageData();
  const argsJson = useMemo(() => convexToJson(args as Value), [args]);
  const key = pageQueryKey(name, argsJson);
  page?.record?.(key, name, argsJson);
  const raw = page?.data.queries[key];
  return useMemo(
    () =>
      raw === undefined ? undefined : { value: jsonToConvex(raw as JSONValue), json: JSON.stringify(raw) },
    [raw],
  );
}

/**
 * The live answer, or the embedded one while there is none, and also when the live one says the same:
 * then the page's objects stay the same ones, and memoised parts (the cards) are not drawn again when
 * the subscription first answers (a long task on a slow phone).
 */
function preferEmbedded<T>(live: T | undefined, embedded: Embedded): T | undefined {
  if (embedded === undefined) return live;
  if (live === undefined) return embedded.value as T;
  return JSON.stringify(convexToJson(live as Value)) === embedded.json ? (embedded.value as T) : live;
}

/**
 * Whether the subscription has moved past its first answer. Only the first is compared with the
 * embedded one: a comparison serializes the whole answer, and the later ones are the live page's own
 * (a page that follows a busy live board would otherwise pay for it on every change).
 */
function usePastFirstAnswer(live: unknown): boolean {
  const [first, setFirst] = useState<unknown>(undefined);
  if (first === undefined && live !== undefined) setFirst(live);
  return first !== undefined && live !== first;
}

/** `useQuery(query, args)`, answered from the page's embedded data until the subscription answers. */
export function usePageQuery<Query extends PublicQuery>(
  query: Query,
  args: FunctionArgs<Query>,
): FunctionReturnType<Query> | undefined {
  const live: FunctionReturnType<Query> | undefined = useQuery(query, args);
  const embedded = useEmbeddedAnswer(getFunctionName(query), args);
  const past = usePastFirstAnswer(live);
  return useMemo(() => (past ? live : preferEmbedded(live, embedded)), [past, live, embedded]);
}

type PaginatedQuery<Item> = FunctionReference<
  "query",
  "public",
  Record<string, unknown> & { paginationOpts: PaginationOptions },
  PaginationResult<Item>
>;

/**
 * convex-helpers' `usePaginatedQuery`, whose first page comes from the page's embedded data until the
 * subscription answers it (later pages are loaded as usual).
 */
export function usePagePaginatedQuery<Item>(
  query: PaginatedQuery<Item>,
  args: Omit<FunctionArgs<PaginatedQuery<Item>>, "paginationOpts">,
  options: { initialNumItems: number },
) {
  const paginated = usePaginatedQuery(query, args as never, options);
  const firstPageArgs = useMemo(
    () => ({ ...args, paginationOpts: { numItems: options.initialNumItems, cursor: null } }),
    [args, options.initialNumItems],
  );
  const embedded = useEmbeddedAnswer(getFunctionName(query), firstPageArgs);
  const firstPage = embedded?.value as PaginationResult<Item> | undefined;
  const firstPageJson = useMemo(
    () => (firstPage === undefined ? undefined : JSON.stringify(convexToJson(firstPage.page as Value))),
    [firstPage],
  );
  const liveResults = paginated.results;
  const past = usePastFirstAnswer(paginated.status === "LoadingFirstPage" ? undefined : liveResults);
  // The same items as the embedded page: the same objects (see preferEmbedded).
  const results = useMemo(
    () =>
      !past &&
      firstPage !== undefined &&
      liveResults.length === firstPage.page.length &&
      JSON.stringify(convexToJson(liveResults as Value)) === firstPageJson
        ? firstPage.page
        : liveResults,
    [past, firstPage, firstPageJson, liveResults],
  );
  if (paginated.status !== "LoadingFirstPage" || firstPage === undefined) {
    return results === liveResults ? paginated : { ...paginated, results };
  }
  return {
    ...paginated,
    results: firstPage.page,
    status: firstPage.isDone ? ("Exhausted" as const) : ("CanLoadMore" as const),
    isLoading: false,
  };
}
