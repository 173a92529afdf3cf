import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { PageLoading } from "@/components/layout/page-loading";
import { chunkReloadDecision } from "@/lib/chunk-reload";
import { ErrorPage } from "./error-page";
import { NotFoundPage } from "./not-found-page";

/** Every route's error element: a 404 for missing things, otherwise the 500 page (docs/product.md#errors). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  // A lazy route whose chunk is gone (a new build is out): reload once rather than show an error.
  const reloading = chunkReloadDecision(error);
  useEffect(() => {
    if (reloading) window.location.reload();
  }, [reloading]);
  if (reloading) return <PageLoading label="Loading the latest version…" />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : "Something went wrong on our side. Please try again in a moment.";
  return <ErrorPage status={status} title="Internal Server Error" message={message} />;
}
