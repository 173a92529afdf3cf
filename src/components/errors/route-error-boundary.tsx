import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { ErrorPage } from "./error-page";
import { NotFoundPage } from "./not-found-page";

/** Every route's error element: a 404 for missing things, otherwise SPEC.md's 500 page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : "Something went wrong on our side. Please try again in a moment.";
  return <ErrorPage status={status} title="Internal Server Error" message={message} />;
}
