/** Jest's `--json` results, read per file and test, with the out-of-scope tests set apart. */
import path from "node:path";
import { outOfScope } from "./scope.ts";

export type JestResults = {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
};

export type Summary = {
  lines: string[];
  passed: number;
  inScope: number;
  outOfScope: number;
  skipped: number;
  filesFailedToRun: number;
};

/** The first line of a failure that says what went wrong (jest's messages start with a matcher hint). */
function firstLine(message: string): string {
  // Jest colours its messages.
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  const lines = plain.split("\n").map((line) => line.trim());
  const line =
    lines.find((l) => /^(Expected|Received|Error|thrown|Thrown|\[CONVEX|Uncaught|Server Error)/.test(l)) ??
    lines.find((l) => l !== "") ??
    "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export function summarize(results: JestResults, scratch: string): Summary {
  const summary: Summary = {
    lines: [],
    passed: 0,
    inScope: 0,
    outOfScope: 0,
    skipped: 0,
    filesFailedToRun: 0,
  };
  const files = [...results.testResults].sort((a, b) => a.name.localeCompare(b.name));
  for (const file of files) {
    const name = path.relative(scratch, file.name).split(path.sep).join("/");
    let passed = 0;
    let counted = 0;
    const failures: string[] = [];
    for (const test of file.assertionResults) {
      if (outOfScope(name, test.fullName)) {
        summary.outOfScope++;
        continue;
      }
      if (test.status === "pending" || test.status === "skipped" || test.status === "todo") {
        summary.skipped++;
        continue;
      }
      counted++;
      if (test.status === "passed") passed++;
      else failures.push(`      ✗ ${test.fullName}\n        ${firstLine(test.failureMessages.join("\n"))}`);
    }
    summary.passed += passed;
    summary.inScope += counted;
    if (file.assertionResults.length === 0 && file.status === "failed") {
      summary.filesFailedToRun++;
      summary.lines.push(`FAIL  ${name}: did not run: ${firstLine(file.message)}`);
      continue;
    }
    summary.lines.push(`${failures.length === 0 ? "PASS" : "FAIL"}  ${name}  ${passed} of ${counted} passed`);
    summary.lines.push(...failures);
  }
  if (summary.skipped > 0) summary.lines.push(`(${summary.skipped} tests are skipped in Convex's own code)`);
  return summary;
}
