/** The page a paginated query returns to a caller who may not see any: no rows, and nothing more. */
export const EMPTY_PAGE = { page: [], isDone: true, continueCursor: "" };
