import { ExternalLink } from "@/components/ui/external-link";
import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";
import { PLATFORMS, type PlatformType } from "@convex/lib/constants";

export type PlatformLinkData = {
  platformType: PlatformType;
  platformStreamUrl?: string;
  platformActionUrl?: string;
};

/**
 * Where to watch and where to buy, one pill per platform; every link leaves the site explicitly.
 * `onFollow` hears which platform a visitor left for (seller insights' click-throughs).
 */
export function PlatformLinks({
  platforms,
  className,
  onFollow,
}: {
  platforms: PlatformLinkData[];
  className?: string;
  onFollow?: (platform: PlatformType) => void;
}) {
  const links = platforms.flatMap((platform) => {
    const info = PLATFORMS[platform.platformType];
    return [
      platform.platformStreamUrl && {
        key: `${platform.platformType}-watch`,
        platform: platform.platformType,
        href: platform.platformStreamUrl,
        label: `Watch on ${info.label}`,
        icon: info.icon,
      },
      platform.platformActionUrl && {
        key: `${platform.platformType}-shop`,
        platform: platform.platformType,
        href: platform.platformActionUrl,
        label: `Shop on ${info.label}`,
        icon: "lucide:shopping-bag",
      },
    ].filter(
      (link): link is { key: string; platform: PlatformType; href: string; label: string; icon: string } =>
        Boolean(link),
    );
  });
  if (links.length === 0) return null;
  return (
    <ul className={cn("flex flex-wrap gap-2", className)} aria-label="Platform links">
      {links.map((link) => (
        <li key={link.key}>
          <ExternalLink
            href={link.href}
            external
            onClick={() => onFollow?.(link.platform)}
            className="relative z-10 inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Icon name={link.icon} className="size-4" />
            {link.label}
            <Icon name="lucide:external-link" className="size-3.5 text-slate-500" />
            <span className="sr-only">(opens in a new tab)</span>
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}
