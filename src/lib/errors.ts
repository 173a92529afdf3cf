import { ConvexError } from "convex/values";

/** The sentence to show a person for a failed call: the server's own words for a ConvexError. */
export function errorMessage(error: unknown): string {
  if (error instanceof ConvexError) {
    const data: unknown = error.data;
    if (typeof data === "string") return data;
    if (data && typeof data === "object" && "message" in data && typeof data.message === "string") {
      return data.message;
    }
  }
  return "Something went wrong. Please try again.";
}
