// `npm start`: the server as `npm run build` built it (decision 093).
import { runBuilt } from "./built.mjs";

await runBuilt("server", "serveFromCommandLine");
