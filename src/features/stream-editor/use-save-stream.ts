import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ParsedStream } from "./stream-draft";

/**
 * Saves the stream form in one mutation, all or nothing: its fields, categories, metro areas and
 * platform links (decision 060). A new stream is created once; a later save updates it.
 */
export function useSaveStream(target: { streamId: Id<"streams"> } | { liveShopId: Id<"liveShops"> }) {
  const createStream = useMutation(api.streams.createStream);
  const updateStream = useMutation(api.streams.updateStream);
  const [createdId, setCreatedId] = useState<Id<"streams">>();
  const savedId = "streamId" in target ? target.streamId : createdId;

  async function save({ stream, categories, cbsaCodes, platforms }: ParsedStream) {
    if (savedId !== undefined) {
      await updateStream({ streamId: savedId, stream, categories, cbsaCodes, platforms });
      return savedId;
    }
    if (!("liveShopId" in target)) throw new Error("A new stream needs its shop.");
    const created = await createStream({
      liveShopId: target.liveShopId,
      stream,
      categories,
      cbsaCodes,
      platforms,
    });
    setCreatedId(created);
    return created;
  }

  return { save, savedId };
}
