import { useQuery } from "convex/react";
import { Link } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { formatDateTime } from "@/lib/format-date";

/** The person's latest in-app notices (go-lives are announced in the open tab instead). */
export function RecentNotices() {
  const notices = useQuery(api.notifications.myNotices);
  if (!notices || notices.length === 0) return null;
  return (
    <div className="mt-6">
      <h3 className="font-semibold">Recent notices</h3>
      <ul className="mt-2 divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {notices.map((notice) => (
          <li key={notice._id} className="py-2">
            <Link
              to={notice.path}
              className="font-medium text-primary-700 hover:underline dark:text-primary-100"
            >
              {notice.title}
            </Link>
            <p className="text-slate-600 dark:text-slate-300">{notice.body}</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">{formatDateTime(notice.createdAt)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
