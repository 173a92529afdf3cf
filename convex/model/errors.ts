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
  | "NOT_EDITABLE"
  | "ACCOUNT_DELETED"
  | "RATE_LIMITED"
  | TransitionErrorCode;

/**
 * `fields`: for refused arguments, the form's message per dotted path (`shop.slug`), as `fieldErrors`
 * gives them. `missing`: what a shop lacks before it can be submitted. `restartable`: for
 * ACCOUNT_DELETED, whether the person may choose to start a new account with the same sign-in.
 * `retryAfterMs`: for RATE_LIMITED, how long until the call can succeed.
 */
export type AppErrorDetails = {
  fields?: Record<string, string>;
  missing?: string[];
  restartable?: boolean;
  retryAfterMs?: number;
};

export type AppErrorData = { code: AppErrorCode; message: string } & AppErrorDetails;

export function appError(
  code: AppErrorCode,
  message: string,
  details: AppErrorDetails = {},
): ConvexError<AppErrorData> {
  return new ConvexError({ code, message, ...details });
}
