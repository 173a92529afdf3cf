import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useTheme } from "@/lib/theme";

export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  const dark = theme === "dark";
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-pressed={dark}
      aria-label="Dark mode"
      onClick={() => setTheme(dark ? "light" : "dark")}
    >
      <Icon name={dark ? "lucide:moon" : "lucide:sun"} />
    </Button>
  );
}
