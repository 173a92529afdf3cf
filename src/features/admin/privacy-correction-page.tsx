import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { useParams } from "react-router-dom";
import { InvalidIdBoundary } from "@/components/errors/invalid-id-boundary";
import { FormAlert } from "@/components/forms/form-alert";
import { ImageUploadTargetContext } from "@/components/forms/image-upload";
import { PageLoading } from "@/components/layout/page-loading";
import { CorrectionList } from "@/components/privacy/correction-list";
import { PrivacyRequestFacts } from "@/components/privacy/privacy-status";
import { ShopStatusBadge } from "@/components/shops/shop-status-badge";
import { StreamStatusBadge } from "@/components/streams/stream-status-badge";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  LIMITS,
  profileCorrectionSchema,
  shopTextCorrectionSchema,
  streamTextCorrectionSchema,
} from "@convex/lib/validation";
import { AdminBackLink, AdminShell } from "./admin-shell";
import { CorrectionForm } from "./correction-form";
import { requesterName } from "./privacy-request-card";

type Subject = NonNullable<FunctionReturnType<typeof api.privacy.getCorrection>>;
type SubjectShop = Subject["shops"][number];

function BackLink() {
  return <AdminBackLink to={paths.dashboard.admin.privacyRequests.getHref()}>Privacy requests</AdminBackLink>;
}

function NotFound() {
  return (
    <AdminShell title="Correction request not found">
      <p className="text-slate-600 dark:text-slate-300">
        There is no correction request here, or its person's account is gone. <BackLink />
      </p>
    </AdminShell>
  );
}

/**
 * `/dashboard/admin/privacy-requests/:requestId`: an admin corrects what a person asked to have corrected
 * (issue 16): their name, email where LiveLocal manages it, picture, and the words of their shops and
 * shows. Each save is kept on the request, which the person reads, and recorded in the activity log;
 * the request is then approved from the queue with a note.
 */
export function PrivacyCorrectionPage() {
  const { requestId = "" } = useParams();
  return (
    <InvalidIdBoundary key={requestId} fallback={<NotFound />}>
      <Correction requestId={requestId as Id<"privacyRequests">} />
    </InvalidIdBoundary>
  );
}

function Correction({ requestId }: { requestId: Id<"privacyRequests"> }) {
  const subject = useQuery(api.privacy.getCorrection, { requestId });
  // A refusal whose form has gone: the request was answered while a correction was on its way.
  const [lost, setLost] = useState<string | null>(null);
  if (subject === undefined) return <PageLoading label="Loading the request…" />;
  if (subject === null) return <NotFound />;
  const who = requesterName({ ...subject.person, name: subject.person.name });
  return (
    <AdminShell
      title="Correct personal data"
      description={`For the correction request of ${who}. Each save is shown to them and recorded in the activity log.`}
    >
      <div className="space-y-8">
        <section
          aria-labelledby="request-heading"
          className="rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="request-heading" className="text-lg font-semibold">
              What they asked
            </h2>
            <BackLink />
          </div>
          <PrivacyRequestFacts request={subject} audience="admin" />
          <CorrectionList corrections={subject.corrections} heading="Changes made" />
          {subject.open ? (
            subject.corrections.length > 0 && (
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
                Done? Approve the request from the queue with a note of what you changed.
              </p>
            )
          ) : (
            <p className="mt-3 text-sm font-medium text-slate-700 dark:text-slate-200">
              This request has been answered: nothing more is corrected for it.
            </p>
          )}
          {lost && (
            <div className="mt-3">
              <FormAlert message={`Your last correction was not saved. ${lost}`} />
            </div>
          )}
        </section>
        {subject.open && (
          // Pictures uploaded here are the requester's.
          <ImageUploadTargetContext value={{ kind: "correction", requestId: subject.requestId }}>
            <Corrections subject={subject} onOrphanedRefusal={setLost} />
          </ImageUploadTargetContext>
        )}
      </div>
    </AdminShell>
  );
}

function Corrections({
  subject,
  onOrphanedRefusal,
}: {
  subject: Subject;
  onOrphanedRefusal: (message: string) => void;
}) {
  const { requestId, person } = subject;
  const correctProfile = useMutation(api.privacy.correctProfile);
  return (
    <>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile
        </h2>
        {!person.emailEditable && (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Email: <span className="[overflow-wrap:anywhere]">{person.email}</span>. Emails are managed by the
            sign-in service here: the person changes theirs there, and LiveLocal follows.
          </p>
        )}
        <div className="mt-4 rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800">
          <CorrectionForm
            label="Correct the profile"
            serverPrefix="profile."
            schema={profileCorrectionSchema}
            fields={[
              { name: "name", label: "Name", max: LIMITS.userName, optional: true },
              ...(person.emailEditable
                ? [{ name: "email" as const, label: "Email", max: LIMITS.email, type: "email" as const }]
                : []),
              {
                name: "avatar",
                label: "Picture",
                max: LIMITS.avatar,
                optional: true,
                image: true,
                hint: "Upload one, or give an http:// or https:// link; blank removes the picture.",
              },
            ]}
            initial={{ name: person.name ?? "", email: person.email, avatar: person.avatar ?? "" }}
            save={({ name, email, avatar }) =>
              correctProfile({
                requestId,
                profile: { name, avatar, ...(person.emailEditable && { email }) },
              })
            }
            onOrphanedRefusal={onOrphanedRefusal}
          />
        </div>
      </section>

      <section aria-labelledby="shops-heading">
        <h2 id="shops-heading" className="text-xl font-semibold">
          Shops and shows
        </h2>
        {subject.shops.length === 0 ? (
          <p className="mt-2 text-slate-600 dark:text-slate-300">They own no shops.</p>
        ) : (
          <ul className="mt-4 space-y-6">
            {subject.shops.map((shop) => (
              <ShopCorrections
                key={shop._id}
                requestId={requestId}
                shop={shop}
                onOrphanedRefusal={onOrphanedRefusal}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function ShopCorrections({
  requestId,
  shop,
  onOrphanedRefusal,
}: {
  requestId: Id<"privacyRequests">;
  shop: SubjectShop;
  onOrphanedRefusal: (message: string) => void;
}) {
  const correctShopText = useMutation(api.privacy.correctShopText);
  const correctStreamText = useMutation(api.privacy.correctStreamText);
  const headingId = `shop-${shop._id}`;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-lg font-semibold [overflow-wrap:anywhere]">
          {shop.liveShopName}
        </h3>
        <ShopStatusBadge status={shop.status} />
      </div>
      <div className="mt-4">
        <CorrectionForm
          label={`Correct ${shop.liveShopName}`}
          serverPrefix="shop."
          schema={shopTextCorrectionSchema}
          fields={[
            { name: "liveShopName", label: "Shop name", max: LIMITS.shopName },
            { name: "headline", label: "Headline", max: LIMITS.headline, optional: true },
            {
              name: "description",
              label: "Description",
              max: LIMITS.shopDescription,
              multiline: true,
              optional: true,
            },
            {
              name: "productsSummary",
              label: "Products summary",
              max: LIMITS.productsSummary,
              multiline: true,
              optional: true,
            },
          ]}
          initial={{
            liveShopName: shop.liveShopName,
            headline: shop.headline ?? "",
            description: shop.description ?? "",
            productsSummary: shop.productsSummary ?? "",
          }}
          save={(values) => correctShopText({ requestId, liveShopId: shop._id, shop: values })}
          onOrphanedRefusal={onOrphanedRefusal}
        />
      </div>
      {shop.streams.length > 0 && (
        <div className="mt-6">
          <h4 className="font-semibold">Shows</h4>
          <ul className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {shop.streams.map((stream) => (
              <li key={stream._id}>
                <details className="group p-3">
                  <summary className="flex cursor-pointer flex-wrap items-center gap-2 font-medium">
                    <Icon
                      name="lucide:chevron-right"
                      className="size-4 transition-transform group-open:rotate-90"
                    />
                    <span className="[overflow-wrap:anywhere]">{stream.streamTitle}</span>
                    <StreamStatusBadge status={stream.streamStatus} />
                  </summary>
                  <div className="mt-3">
                    <CorrectionForm
                      label={`Correct the show ${stream.streamTitle}`}
                      serverPrefix="stream."
                      schema={streamTextCorrectionSchema}
                      fields={[
                        { name: "streamTitle", label: "Title", max: LIMITS.streamTitle },
                        {
                          name: "streamDescription",
                          label: "Description",
                          max: LIMITS.streamDescription,
                          multiline: true,
                          optional: true,
                        },
                      ]}
                      initial={{
                        streamTitle: stream.streamTitle,
                        streamDescription: stream.streamDescription ?? "",
                      }}
                      save={(values) =>
                        correctStreamText({ requestId, streamId: stream._id, stream: values })
                      }
                      onOrphanedRefusal={onOrphanedRefusal}
                    />
                  </div>
                </details>
              </li>
            ))}
          </ul>
          {shop.moreStreams && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
              The newest shows are listed. Older ones are corrected in their editor, from the shop's page.
            </p>
          )}
        </div>
      )}
    </li>
  );
}
