import { Outlet } from "react-router-dom";
import { Header } from "@/components/layout/header";
import { AccountControl } from "@/features/auth/account-control";

export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header accountControl={<AccountControl />} />
      <main className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
        LiveLocal · live shopping from sellers near you
      </footer>
    </div>
  );
}
