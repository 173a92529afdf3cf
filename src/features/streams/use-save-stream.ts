import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ParsedStream } from "./stream-draft";

export type StreamLinksChanged = { categories: boolean; cbsaCodes: boolean; platforms: boolean };

/**
 * Saves the stream form: its fields, then the categories, metro areas and platform links that changed.
 * A new stream is created once; if a later step is refused, the next save updates it instead.
 */
export function useSaveStream(target: { streamId: Id<"streams"> } | { liveShopId: Id<"liveShops"> }) {
  const createStream = useMutation(api.streams.createStream);
  const updateStream = useMutation(api.streams.updateStream);
  const setStreamCategories = useMutation(api.streams.setStreamCategories);
  const setStreamMsas = useMutation(api.streams.setStreamMsas);
  const setStreamPlatforms = useMutation(api.streams.setStreamPlatforms);
  const [createdId, setCreatedId] = useState<Id<"streams">>();
  const savedId = "streamId" in target ? target.streamId : createdId;

  async function save(data: ParsedStream, changed: StreamLinksChanged) {
    let streamId = savedId;
    if (streamId === undefined) {
      if (!("liveShopId" in target)) throw new Error("A new stream needs its shop.");
      streamId = await createStream({ liveShopId: target.liveShopId, stream: data.stream });
      setCreatedId(streamId);
    } else {
      await updateStream({ streamId, stream: data.stream });
    }
    if (changed.categories) await setStreamCategories({ streamId, categories: data.categories });
    if (changed.cbsaCodes) await setStreamMsas({ streamId, cbsaCodes: data.cbsaCodes });
    if (changed.platforms) await setStreamPlatforms({ streamId, platforms: data.platforms });
    return streamId;
  }

  return { save, savedId };
}
