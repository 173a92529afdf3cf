import "@testing-library/jest-dom/vitest";
import "./dialog-polyfill";
// The app registers these with each lazy route; components under test get them at once.
import "@/components/ui/route-icons";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
});
