import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

export type PublicStream = NonNullable<FunctionReturnType<typeof api.streams.getPublicStream>>;
