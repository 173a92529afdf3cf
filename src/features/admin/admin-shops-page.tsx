import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { SHOP_STATUS_LABELS, ShopStatusBadge } from "@/components/shops/shop-status-badge";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { formatDate, formatDateTime } from "@/lib/format-date";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { api } from "@convex/_generated/api";
import { SHOP_STATUSES, type ShopStatus } from "@convex/lib/constants";
import { isShopPublic } from "@convex/lib/lifecycle";
import { AdminShell } from "./admin-shell";
import {
  ADMIN_PAGE_SIZE,
  AdminSearch,
  ListEmpty,
  ListLoading,
  LoadMore,
  NoticeArea,
  SEARCH_DELAY_MS,
  useBulkApproval,
} from "./admin-list";
import { ShopModerationActions, type Notice } from "./shop-moderation-actions";

type QueueEntry = FunctionReturnType<typeof api.admin.listVerificationQueue>["page"][number];
type ShopRow = FunctionReturnType<typeof api.admin.listShops>["page"][number];

/** What `admin.searchShops` answers at most (convex/admin.ts SHOP_SEARCH_LIMIT). */
const SHOP_SEARCH_LIMIT = 25;

const linkClass = "font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100";

function parseShopStatus(value: string | null): ShopStatus | undefined {
  return SHOP_STATUSES.find((status) => status === value);
}

/** The owner's name, and their email on its own line (long addresses wrap there, not mid-name). */
function Owner({ owner }: { owner: QueueEntry["owner"] }) {
  if (!owner) return <p className="text-sm text-slate-500 dark:text-slate-400">Owner's account deleted</p>;
  return (
    <p className="text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">
      {owner.name && <span className="block">{owner.name}</span>}
      <span className="block">{owner.email}</span>
    </p>
  );
}

/**
 * `/dashboard/admin/shops`: the verification queue first (approve, several at once, or reject with a
 * reason), then every shop, filtered by `?status=` and searched by name or owner's email (`?q=`), with
 * suspend (with a reason) and reinstate. Live: a decision taken in
 * another tab moves the shop at once.
 */
export function AdminShopsPage() {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <AdminShell
      title="Shops"
      description="Verify new shops before they are shown, and suspend or reinstate shops that break the rules."
    >
      <NoticeArea notice={notice} />
      <div className="space-y-12">
        <VerificationQueue onNotice={setNotice} />
        <AllShops onNotice={setNotice} />
      </div>
    </AdminShell>
  );
}

function VerificationQueue({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.admin.listVerificationQueue,
    {},
    { initialNumItems: ADMIN_PAGE_SIZE },
  );
  const approveShops = useMutation(api.admin.approveShops);
  const bulk = useBulkApproval({
    rows: results.map((shop) => ({ id: shop._id, name: shop.liveShopName })),
    rowNoun: "shop",
    noun: "shop",
    explanation: "Each is shown on LiveLocal at once, and its owner can take streams live:",
    done: "approved and now active.",
    approve: (liveShopIds) => approveShops({ liveShopIds }),
    onNotice,
  });

  return (
    <section aria-labelledby="queue-heading">
      <h2 id="queue-heading" className="text-xl font-semibold">
        Awaiting verification
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Waiting longest first. Check the details, then approve (several at once if you like), or reject with a
        reason the owner will see.
      </p>
      {status === "LoadingFirstPage" ? (
        <ListLoading>Loading the queue…</ListLoading>
      ) : results.length === 0 ? (
        <ListEmpty>No shops are waiting for verification.</ListEmpty>
      ) : (
        <>
          {bulk.bar}
          <ol aria-label="Verification queue" className="mt-4 space-y-4">
            {results.map((shop) => (
              <QueueCard
                key={shop._id}
                shop={shop}
                onNotice={onNotice}
                selected={bulk.selection.isSelected(shop._id)}
                onSelect={(on) => bulk.selection.toggle(shop._id, on)}
              />
            ))}
          </ol>
        </>
      )}
      <LoadMore status={status} onLoadMore={() => loadMore(ADMIN_PAGE_SIZE)} />
      {bulk.dialog}
    </section>
  );
}

function QueueCard({
  shop,
  onNotice,
  selected,
  onSelect,
}: {
  shop: QueueEntry;
  onNotice: (notice: Notice) => void;
  selected: boolean;
  onSelect: (selected: boolean) => void;
}) {
  const headingId = `queue-${shop._id}`;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start gap-3">
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={`Select ${shop.liveShopName}`}
          className="mt-1 size-4 shrink-0 accent-primary-700"
        />
        {shop.logoUrl ? (
          <img src={shop.logoUrl} alt="" className="size-12 shrink-0 rounded-xl object-cover" />
        ) : (
          <span
            aria-hidden
            className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400"
          >
            <Icon name="lucide:store" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="[overflow-wrap:anywhere] text-lg font-semibold">
            {shop.liveShopName}
          </h3>
          <Owner owner={shop.owner} />
          <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">
            Waiting since{" "}
            <time dateTime={new Date(shop.waitingSince).toISOString()}>
              {formatDateTime(shop.waitingSince)}
            </time>
            {" · "}opened{" "}
            <time dateTime={new Date(shop.createdAt).toISOString()}>{formatDate(shop.createdAt)}</time>
          </p>
        </div>
      </div>

      {shop.headline && <p className="mt-3 font-medium">{shop.headline}</p>}
      {shop.description && (
        <p className="mt-1 line-clamp-4 whitespace-pre-line text-sm text-slate-700 dark:text-slate-200">
          {shop.description}
        </p>
      )}
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-500 dark:text-slate-400">Categories</dt>
          <dd>
            {shop.categories.length === 0
              ? "None"
              : shop.categories
                  .map((category) =>
                    category.subcategoryLabel
                      ? `${category.label}: ${category.subcategoryLabel}`
                      : category.label,
                  )
                  .join(", ")}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500 dark:text-slate-400">Metro areas</dt>
          <dd>{shop.areas.length === 0 ? "None" : shop.areas.map((area) => area.msaLabel).join("; ")}</dd>
        </div>
      </dl>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <ShopModerationActions
          shop={{ _id: shop._id, liveShopName: shop.liveShopName, status: "pending_verification" }}
          onNotice={onNotice}
        />
        <Link
          to={paths.dashboard.liveShop.getHref(shop._id)}
          className={`text-sm ${linkClass}`}
          aria-label={`Open in the editor: ${shop.liveShopName}`}
        >
          Open in the editor
        </Link>
      </div>
    </li>
  );
}

function AllShops({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = parseShopStatus(searchParams.get("status"));
  const [text, setText] = useState(searchParams.get("q") ?? "");
  const searching = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const { results, status, loadMore } = usePaginatedQuery(
    api.admin.listShops,
    searching ? "skip" : filter ? { status: filter } : {},
    { initialNumItems: ADMIN_PAGE_SIZE },
  );
  const found = useQuery(
    api.admin.searchShops,
    searching ? { text: searching, ...(filter && { status: filter }) } : "skip",
  );
  // The address keeps the search, as it keeps the status, so a filtered view can be shared.
  useEffect(() => {
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (searching) next.set("q", searching);
        else next.delete("q");
        return next;
      },
      { replace: true },
    );
  }, [searching, setSearchParams]);

  const rows = searching ? found : status === "LoadingFirstPage" ? undefined : results;
  return (
    <section aria-labelledby="all-shops-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="all-shops-heading" className="text-xl font-semibold">
            All shops
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {searching
              ? `Matches for “${searching}”, at most ${SHOP_SEARCH_LIMIT}.`
              : filter
                ? "Most recently changed first."
                : "Newest first."}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <AdminSearch label="Search by shop name or owner's email" value={text} onChange={setText} />
          <label className="flex flex-col gap-1 text-sm font-medium">
            Status
            <select
              value={filter ?? ""}
              onChange={(event) => {
                const next = parseShopStatus(event.target.value);
                setSearchParams(
                  (params) => {
                    const updated = new URLSearchParams(params);
                    if (next) updated.set("status", next);
                    else updated.delete("status");
                    return updated;
                  },
                  { replace: true },
                );
              }}
              className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm font-normal focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">Every status</option>
              {SHOP_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {SHOP_STATUS_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>

      {rows === undefined ? (
        <ListLoading>{searching ? "Searching…" : "Loading shops…"}</ListLoading>
      ) : rows.length === 0 ? (
        <ListEmpty>
          {searching
            ? `No shop's name or owner's email matches “${searching}”${filter ? ` among ${SHOP_STATUS_LABELS[filter].toLowerCase()} shops` : ""}.`
            : filter
              ? `No shops are ${SHOP_STATUS_LABELS[filter].toLowerCase()}.`
              : "There are no shops yet."}
        </ListEmpty>
      ) : (
        <ul
          aria-label="Shops"
          className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {rows.map((shop) => (
            <ShopListRow key={shop._id} shop={shop} onNotice={onNotice} />
          ))}
        </ul>
      )}
      {!searching && <LoadMore status={status} onLoadMore={() => loadMore(ADMIN_PAGE_SIZE)} />}
    </section>
  );
}

function ShopListRow({ shop, onNotice }: { shop: ShopRow; onNotice: (notice: Notice) => void }) {
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="[overflow-wrap:anywhere] font-semibold">{shop.liveShopName}</span>
          <ShopStatusBadge status={shop.status} />
        </p>
        <Owner owner={shop.owner} />
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Changed <time dateTime={new Date(shop.updatedAt).toISOString()}>{formatDate(shop.updatedAt)}</time>
        </p>
        {shop.statusReason && (
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
            <span className="font-medium">Reason given:</span> {shop.statusReason}
          </p>
        )}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {isShopPublic(shop.status) && (
            <Link
              to={paths.liveShop.getHref(shop.slug)}
              className={linkClass}
              aria-label={`Public page of ${shop.liveShopName}`}
            >
              Public page
            </Link>
          )}
          <Link
            to={paths.dashboard.liveShop.getHref(shop._id)}
            className={linkClass}
            aria-label={`Editor of ${shop.liveShopName}`}
          >
            Editor
          </Link>
          <Link
            to={paths.dashboard.admin.shopInsights.getHref(shop._id)}
            className={linkClass}
            aria-label={`Insights of ${shop.liveShopName}`}
          >
            Insights
          </Link>
        </p>
      </div>
      <div className="shrink-0">
        <ShopModerationActions shop={shop} onNotice={onNotice} />
      </div>
    </li>
  );
}
