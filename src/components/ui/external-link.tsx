import type { AnchorHTMLAttributes, ReactNode } from "react";
import { checkExternalNavigation } from "@/lib/external-url";

type ExternalLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href" | "target" | "rel"> & {
  href: string;
  /** Must be set to link out of LiveLocal; without it an external `href` throws (docs/product.md#errors). */
  external?: boolean;
  children: ReactNode;
};

/** A link that leaves the site: checked (http(s) only, explicit flag), new tab, no opener, no referrer. */
export function ExternalLink({ href, external, children, ...props }: ExternalLinkProps) {
  const checked = checkExternalNavigation(href, { external });
  return (
    <a {...props} href={checked} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
