import { ConvexError } from "convex/values";

/** An error thrown in the browser whose message is a sentence written for the person (lib/push.ts). */
export class UserFacingError extends Error {}

/**
 * The sentence to show a person for a failed call: the server's own words for a ConvexError, the
 * browser code's for a UserFacingError; anything else is not for reading.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  if (error instanceof ConvexError) {
    const data: unknown = error.data;
    if (typeof data === "string") return data;
    if (data && typeof data === "object" && "message" in data && typeof data.message === "string") {
      return data.message;
    }
  }
  return "Something went wrong. Please try again.";
}
