import { Component, type ReactNode } from "react";

/**
 * Convex refuses an id of the wrong shape (a hand-edited URL) before the query runs: the local backend
 * says "Expected ID for table", Convex Cloud "does not match validator ... v.id(". Only those mean "no
 * such record"; anything else is a real failure for the route's error page.
 */
export function isInvalidIdError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return /Expected ID for table|Value does not match validator[\s\S]*v\.id\(/.test(message);
}

type Props = { fallback: ReactNode; children: ReactNode };

/** Shows `fallback` (the page's own "not found") when a query is given an id that cannot exist. */
export class InvalidIdBoundary extends Component<Props, { invalid: boolean }> {
  state = { invalid: false };

  static getDerivedStateFromError(error: unknown) {
    if (isInvalidIdError(error)) return { invalid: true };
    throw error;
  }

  render() {
    return this.state.invalid ? this.props.fallback : this.props.children;
  }
}
