import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { useTheme } from "@/lib/theme";

export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  const dark = theme === "dark";
  return (
    // A plain button with the Button's classes: the header stays clear of tailwind-merge (decision 037).
    <button
      type="button"
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-pressed={dark}
      aria-label="Dark mode"
      onClick={() => setTheme(dark ? "light" : "dark")}
    >
      <Icon name={dark ? "lucide:moon" : "lucide:sun"} />
    </button>
  );
}
