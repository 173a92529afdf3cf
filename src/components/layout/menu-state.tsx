import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "react-router-dom";

/**
 * The menus that take turns (docs/product.md#header-and-menus): the mobile menu, the Explore menu and the
 * explore page's filter menu. At most one is open, so opening one closes the others by construction.
 */
export type MenuName = "mobile" | "explore" | "explore-filters";

type MenuState = { openMenu: MenuName | null; setOpenMenu: (menu: MenuName | null) => void };

const MenuStateContext = createContext<MenuState | null>(null);

/** Holds which menu is open; every menu closes when the path changes ("closes on route change"). */
export function MenuStateProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [openMenu, setOpenMenu] = useState<MenuName | null>(null);
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    // Adjusting state during render (React docs, "you might not need an effect"): no flash of the menu.
    setShownPath(pathname);
    setOpenMenu(null);
  }
  const value = useMemo(() => ({ openMenu, setOpenMenu }), [openMenu]);
  return <MenuStateContext.Provider value={value}>{children}</MenuStateContext.Provider>;
}

/** Whether `menu` is open, and a setter that opening it closes whichever other menu was open. */
export function useMenuState(menu: MenuName): [boolean, (open: boolean) => void] {
  const state = useContext(MenuStateContext);
  if (!state) throw new Error("useMenuState needs a MenuStateProvider (src/app/layout.tsx).");
  const { openMenu, setOpenMenu } = state;
  return [
    openMenu === menu,
    (open) => {
      if (open) setOpenMenu(menu);
      else if (openMenu === menu) setOpenMenu(null);
    },
  ];
}
