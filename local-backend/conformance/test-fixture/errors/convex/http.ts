/** HTTP actions that throw (error-texts.test.ts). */
import { httpActionGeneric, httpRouter } from "convex/server";
import { ConvexError } from "convex/values";

const http = httpRouter();

http.route({
  path: "/convex-error",
  method: "GET",
  handler: httpActionGeneric(() => {
    throw new ConvexError({ message: "Hello world!", code: 7n });
  }),
});

http.route({
  path: "/error",
  method: "GET",
  handler: httpActionGeneric(() => {
    throw new Error("ErrMsg");
  }),
});

export default http;
