import { useMutation } from "convex/react";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { useConfirm } from "@/components/ui/use-confirm";
import { paths } from "@/config/paths";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { StreamStatus } from "@convex/lib/constants";

type Props = {
  stream: { _id: Id<"streams">; streamTitle: string; streamStatus: StreamStatus };
  /** Hides the edit link on the stream's own page. */
  showEdit?: boolean;
  /** Where to go after deleting the stream whose page is open. */
  afterDelete?: () => void;
};

const EDIT_WORDS: Partial<Record<StreamStatus, string>> = { ENDED: "Replay link", CANCELLED: "View" };

/** Edit, duplicate (a new draft with the same content) and delete (drafts only, after asking). */
export function StreamActions({ stream, showEdit = true, afterDelete }: Props) {
  const duplicateStream = useMutation(api.streams.duplicateStream);
  const deleteStream = useMutation(api.streams.deleteStream);
  const navigate = useNavigate();
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  const duplicate = () =>
    run(async () => {
      const copyId = await duplicateStream({ streamId: stream._id });
      await navigate(paths.dashboard.stream.getHref(copyId), { state: { duplicated: true } });
    });

  const remove = async () => {
    const yes = await confirm({
      title: `Delete “${stream.streamTitle}”?`,
      description: "The draft and its links are removed for good.",
      confirmLabel: "Delete draft",
      cancelLabel: "Keep it",
      destructive: true,
    });
    if (yes)
      await run(async () => {
        await deleteStream({ streamId: stream._id });
        afterDelete?.();
      });
  };

  return (
    <>
      {showEdit && (
        <Link
          to={paths.dashboard.stream.getHref(stream._id)}
          aria-label={`${EDIT_WORDS[stream.streamStatus] ?? "Edit"}: ${stream.streamTitle}`}
          className={buttonVariants({ variant: "outline", size: "sm" })}
        >
          <Icon name="lucide:pencil" className="size-4" />
          {EDIT_WORDS[stream.streamStatus] ?? "Edit"}
        </Link>
      )}
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        aria-label={`Duplicate ${stream.streamTitle}`}
        onClick={() => void duplicate()}
      >
        <Icon name="lucide:copy" className="size-4" />
        Duplicate
      </Button>
      {stream.streamStatus === "CREATED" && (
        <Button
          variant="ghost"
          size="sm"
          disabled={busy}
          aria-label={`Delete ${stream.streamTitle}`}
          className="text-red-700 dark:text-red-300"
          onClick={() => void remove()}
        >
          <Icon name="lucide:trash-2" className="size-4" />
          Delete
        </Button>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {dialog}
    </>
  );
}
