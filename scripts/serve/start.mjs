// `npm start`: the server as `npm run build` built it (dist/.server/engine/server.mjs, decision 093), on
// plain Node with the production dependencies only. Plain JavaScript, so that it runs before anything
// is built or transpiled.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const entry = path.resolve(import.meta.dirname, "../../dist/.server/engine/server.mjs");
if (!existsSync(entry)) {
  console.error(
    `No server build in dist/ (${path.relative(process.cwd(), entry)} is missing). Run \`npm run build\` first.`,
  );
  process.exit(1);
}
// Stack traces name the project's source files, not the bundle's lines.
process.setSourceMapsEnabled(true);
const { serveFromCommandLine } = await import(pathToFileURL(entry).href);
await serveFromCommandLine();
