import { ErrorPage } from "./error-page";

/** A signed-in person on a page their role does not open: status 403, titled Forbidden. */
export function ForbiddenPage({ message }: { message: string }) {
  return <ErrorPage status={403} title="Forbidden" message={message} />;
}
