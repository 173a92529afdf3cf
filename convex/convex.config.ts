import rateLimiter from "@convex-dev/rate-limiter/convex.config.js";
import resend from "@convex-dev/resend/convex.config.js";
import shardedCounter from "@convex-dev/sharded-counter/convex.config.js";
import { defineApp } from "convex/server";

/** The app and the Convex components it uses (each keeps its own tables and functions). */
const app = defineApp();
app.use(rateLimiter);
app.use(resend);
app.use(shardedCounter);

export default app;
