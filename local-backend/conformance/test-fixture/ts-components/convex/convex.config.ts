import { defineApp } from "convex/server";
import broken from "../broken/convex.config";
import counter from "../counter/convex.config";

const app = defineApp();
app.use(counter);
app.use(broken);

export default app;
