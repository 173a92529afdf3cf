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
import { useMemo } from "react";
import { pageQueryKey, usePageData } from "./page-data";

type PublicQuery = FunctionReference<"query", "public">;

/** The embedded answer for `query` with `args`, recorded on the server; undefined when there is none. */
function useEmbeddedAnswer(name: string, args: Record<string, unknown>): unknown {
  const page = usePageData();
  const argsJson = useMemo(() => convexToJson(args as Value), [args]);
  const key = pageQueryKey(name, argsJson);
  page?.record?.(key, name, argsJson);
  const raw = page?.data.queries[key];
  return useMemo(() => (raw === undefined ? undefined : jsonToConvex(raw as JSONValue)), [raw]);
}

/** `useQuery(query, args)`, answered from the page's embedded data until the subscription answers. */
export function usePageQuery<Query extends PublicQuery>(
  query: Query,
  args: FunctionArgs<Query>,
): FunctionReturnType<Query> | undefined {
  const live = useQuery(query, args) as FunctionReturnType<Query> | undefined;
  const embedded = useEmbeddedAnswer(getFunctionName(query), args) as FunctionReturnType<Query> | undefined;
  return live === undefined ? embedded : live;
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
  const firstPage = useEmbeddedAnswer(getFunctionName(query), firstPageArgs) as
    PaginationResult<Item> | undefined;
  if (paginated.status !== "LoadingFirstPage" || firstPage === undefined) return paginated;
  return {
    ...paginated,
    results: firstPage.page,
    status: firstPage.isDone ? ("Exhausted" as const) : ("CanLoadMore" as const),
    isLoading: false,
  };
}
