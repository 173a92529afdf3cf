import { useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { formatDateTime } from "@/lib/format-date";

/**
 * The local inbox (decision 036): every e-mail the embedded backend caught instead of sending, newest
 * first, with its headers and rendered body (sandboxed: its links open in a new tab, no script runs).
 */
export function DevInboxPage() {
  const inbox = useQuery(api.localInbox.list);
  const [openId, setOpenId] = useState<string | null>(null);
  if (inbox === undefined) return <p className="p-6">Loading the inbox…</p>;
  if (inbox === null) {
    return (
      <div className="mx-auto max-w-3xl p-6">
        <h1 className="text-2xl font-bold">Local inbox</h1>
        <p className="mt-2">This server sends e-mail for real, so there is no local inbox here.</p>
      </div>
    );
  }
  if (inbox.scope === "signedOut") {
    return (
      <div className="mx-auto max-w-3xl p-6">
        <h1 className="text-2xl font-bold">Local inbox</h1>
        <p className="mt-2">Sign in to read the e-mail sent to you here; an admin reads everyone&apos;s.</p>
      </div>
    );
  }
  const mail = inbox.mail;
  const open = mail.find((email) => email._id === openId) ?? mail[0];
  return (
    <div className="mx-auto max-w-6xl p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Local inbox</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {inbox.scope === "everyone" ? "Everyone's e-mails" : "E-mails to you"} the local backend caught
        instead of sending ({mail.length}). Nothing leaves this machine.
      </p>
      {mail.length === 0 ? (
        <p className="mt-6">No e-mail yet.</p>
      ) : (
        // minmax(0, …): a track as wide as the screen, never as wide as a long subject or address.
        <div className="mt-4 grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
          <ul
            aria-label="E-mails"
            className="min-w-0 divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          >
            {mail.map((email) => (
              <li key={email._id}>
                <button
                  type="button"
                  aria-current={email._id === open?._id}
                  onClick={() => setOpenId(email._id)}
                  className="w-full p-3 text-left hover:bg-slate-50 aria-[current=true]:bg-primary-50 dark:hover:bg-slate-800 dark:aria-[current=true]:bg-slate-800"
                >
                  <span className="block truncate font-medium">{email.subject}</span>
                  <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                    To {email.to} · {formatDateTime(email.createdAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {open && (
            <article
              aria-label={open.subject}
              className="min-w-0 rounded-lg border border-slate-200 dark:border-slate-800"
            >
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-b border-slate-200 p-3 text-xs break-all dark:border-slate-800">
                {[
                  { name: "From", value: open.from },
                  { name: "To", value: open.to },
                  { name: "Subject", value: open.subject },
                  ...open.headers,
                ].map((header) => (
                  <div key={header.name} className="contents">
                    <dt className="font-semibold">{header.name}</dt>
                    <dd>{header.value}</dd>
                  </div>
                ))}
              </dl>
              <iframe
                title={`E-mail: ${open.subject}`}
                sandbox="allow-popups allow-popups-to-escape-sandbox allow-forms"
                srcDoc={open.html
                  .replace("<head>", '<head><base target="_blank">')
                  .replace("<html>", '<html><head><base target="_blank"></head>')}
                className="h-[28rem] w-full bg-white"
              />
            </article>
          )}
        </div>
      )}
    </div>
  );
}
