import { cva } from "class-variance-authority";

/**
 * The button look, for buttons and links alike. Its own module, apart from Button (which merges
 * classes with tailwind-merge), so the header can use it without that library in the main chunk.
 */
export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-full font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 disabled:pointer-events-none disabled:opacity-50",
  {
    variants: {
      variant: {
        // 700, not 600: white on green-600 is 3.3:1, under WCAG AA for body text (Lighthouse).
        primary: "bg-primary-700 text-white hover:bg-primary-900",
        secondary: "bg-secondary-600 text-white hover:bg-secondary-700",
        outline:
          "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
        ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
      },
      size: {
        sm: "h-8 px-3 text-sm",
        md: "h-10 px-4 text-sm",
        lg: "h-12 px-6 text-base",
        icon: "size-10",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);
