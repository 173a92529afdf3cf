import { addCollection, Icon as IconifyIcon } from "@iconify/react/offline";
import { clsx } from "clsx";
import { ICON_COLLECTIONS } from "./icons.generated";

for (const collection of ICON_COLLECTIONS) addCollection(collection);

type IconProps = {
  /** An Iconify id such as "lucide:shirt", bundled by scripts/generate-icons.mjs. */
  name: string;
  /** Read out by screen readers; without it the icon is decorative and hidden from them. */
  title?: string;
  className?: string;
};

export function Icon({ name, title, className }: IconProps) {
  return (
    <IconifyIcon
      icon={name}
      className={clsx("icon", className)}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      role={title ? "img" : undefined}
    />
  );
}
