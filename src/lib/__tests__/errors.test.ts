import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { errorMessage, UserFacingError } from "../errors";

// What the Convex clients throw for a failed call, on Convex and on the embedded backend alike: the
// request-id line, the function's error and its stack frames (the React client adds its own prefix).
const REQUEST_ID = "[Request ID: 0123456789abcdef] Server Error";
const convexText = (text: string) =>
  `[CONVEX M(shops:update)] ${REQUEST_ID}\n${text}\n    at <anonymous> (../convex/shops.ts:12:9)\n\n  Called by client`;

describe("errorMessage", () => {
  test("shows a ConvexError's own words, not the text the client received", () => {
    const data = { code: "SHOP_NOT_ACTIVE", message: "The shop must be active first." };
    const error = new ConvexError(data);
    error.message = convexText(`Uncaught ConvexError: ${JSON.stringify(data)}`);
    expect(errorMessage(error)).toBe("The shop must be active first.");
    const plain = new ConvexError("Streams need a title.");
    plain.message = convexText("Uncaught ConvexError: Streams need a title.");
    expect(errorMessage(plain)).toBe("Streams need a title.");
  });

  test("never shows a server's error text (request id, stack frames) to a person", () => {
    const shown = errorMessage(new Error(convexText("Uncaught Error: Cannot read properties of undefined")));
    expect(shown).toBe("Something went wrong. Please try again.");
    expect(shown).not.toMatch(/Request ID|Uncaught|convex\//);
  });

  test("shows the browser code's own sentences", () => {
    expect(errorMessage(new UserFacingError("Notifications are blocked."))).toBe(
      "Notifications are blocked.",
    );
  });
});
