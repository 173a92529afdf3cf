import { ConvexError } from "convex/values";
import type { TransitionErrorCode } from "../lib/lifecycle";

/** Stable codes a caller can branch on; the message is the sentence a person reads. */
export type AppErrorCode =
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "INVALID_ARGUMENT"
  | "INVALID_TRANSITION"
  | "LIMIT_EXCEEDED"
  | TransitionErrorCode;

export type AppErrorData = { code: AppErrorCode; message: string };

export function appError(code: AppErrorCode, message: string): ConvexError<AppErrorData> {
  return new ConvexError({ code, message });
}
