import "@testing-library/jest-dom/vitest";
import "./dialog-polyfill";
// The app registers these with each lazy route; components under test get them at once.
import "@/components/ui/route-icons";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// `findBy…` and `waitFor` wait for a state; on a busy 2-core machine a lazy route can take longer than
// Testing Library's default second to appear, so they wait up to 10 s (they return as soon as it is there).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});
