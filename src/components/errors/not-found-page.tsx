import { useLocation } from "react-router-dom";
import { ErrorPage } from "./error-page";

/** docs/product.md#errors: 'Page not found: {path}', status 404, title Page Not Found. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return <ErrorPage status={404} title="Page Not Found" message={`Page not found: ${pathname}`} />;
}
