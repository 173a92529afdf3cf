import { defineApp } from "convex/server";
import thrower from "../component/convex.config";

const app = defineApp();
app.use(thrower);

export default app;
