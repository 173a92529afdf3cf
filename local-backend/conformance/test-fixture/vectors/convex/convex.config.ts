import { defineApp } from "convex/server";
import pantry from "../pantry/convex.config";

const app = defineApp();
app.use(pantry);

export default app;
