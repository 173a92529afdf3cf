import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { patchUser } from "./users";

/** Sets or (with undefined) removes a person's profile picture. */
export async function setProfilePicture(
  ctx: MutationCtx,
  user: Doc<"users">,
  avatar: string | undefined,
  now = Date.now(),
): Promise<void> {
  if (avatar === user.avatar) return;
  await patchUser(ctx, user._id, { avatar }, now);
}
