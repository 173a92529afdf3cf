import { Link } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useDocumentTitle } from "@/lib/use-document-title";

type ErrorPageProps = {
  status: number;
  title: string;
  message: string;
};

/** The one error screen: a status, a title and a sentence, with a way home. */
export function ErrorPage({ status, title, message }: ErrorPageProps) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Icon name="lucide:circle-alert" className="size-12 text-slate-400" />
      <p className="mt-4 text-sm font-semibold text-primary-700 dark:text-primary-500">{status}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 [overflow-wrap:anywhere] text-slate-600 dark:text-slate-300">{message}</p>
      <Link to={paths.home.getHref()} className={buttonVariants({ className: "mt-8" })}>
        Back to home
      </Link>
    </section>
  );
}
