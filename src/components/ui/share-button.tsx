import { useTransientNote } from "@/lib/use-transient-note";
import { Button } from "./button";
import { Icon } from "./icon";

export type ShareData = { title: string; text: string; url: string };

/**
 * Share a page: the device's share sheet where there is one, else the link copied to the clipboard
 * (and, failing that, shown to copy by hand). The note beside it is a live region.
 */
export function ShareButton({ data }: { data: ShareData }) {
  const [note, setNote] = useTransientNote();

  async function share() {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share(data);
      } catch {
        // Closing the share sheet rejects; nothing to report.
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(data.url);
      setNote("Copied");
    } catch {
      setNote(`Copy this link: ${data.url}`);
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => void share()}>
        <Icon name="lucide:share-2" className="size-4" />
        Share
      </Button>
      <span role="status" className="text-sm font-medium text-primary-700 dark:text-primary-100">
        {note}
      </span>
    </>
  );
}
