/**
 * The repo explains itself (issue 42): it cites its own documents, not files beside it or on one
 * machine; every `docs/product.md#…` or `docs/style.md#…` it cites names a heading there; and the
 * decisions index lists every record once.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const decisionsDir = path.join(root, "docs/decisions");
const thisFile = path.relative(root, import.meta.filename);

/** Tracked files and new ones not ignored: what a commit of this tree would hold. */
function repoTextFiles(): { file: string; text: string }[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return listed
    .split("\n")
    .filter(
      (file) => file !== "" && file !== thisFile && !/\.(png|jpe?g|webp|gif|avif|ico|woff2?)$/.test(file),
    )
    .flatMap((file) => {
      try {
        return [{ file, text: readFileSync(path.join(root, file), "utf8") }];
      } catch {
        return []; // listed but deleted in the work tree
      }
    });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), "utf8");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
}

describe("the repo's own documents", () => {
  const files = repoTextFiles();

  it("are what the repo cites: not the specification's files beside it, nor a path on one machine", () => {
    const outside = ["SPEC", "PRODUCT", "STYLE", "LOCAL-BACKEND"].map((name) => `${name}.md`);
    const found = files.flatMap(({ file, text }) =>
      text
        .split("\n")
        .flatMap((line, index) =>
          outside.some((name) => line.includes(name)) ||
          line.includes("shared/docs") ||
          /(^|[\s`'"(])\/work\//.test(line)
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it("have every section the code cites", () => {
    const anchors = new Map(["docs/product.md", "docs/style.md"].map((doc) => [doc, anchorsIn(doc)]));
    const broken = files.flatMap(({ file, text }) =>
      [...text.matchAll(/docs\/(product|style)\.md#([\w-]+)/g)]
        .filter((match) => !anchors.get(`docs/${match[1]}.md`)!.has(match[2]))
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(broken).toEqual([]);
    expect([...anchors.values()].every((set) => set.size > 5)).toBe(true);
  });
});

describe("the decisions index", () => {
  const records = readdirSync(decisionsDir)
    .filter((name) => /^\d{3}-.+\.md$/.test(name))
    .sort();
  const index = readFileSync(path.join(decisionsDir, "README.md"), "utf8");
  const lines = index.split("\n").filter((line) => line.startsWith("- **"));

  it("lists every record once, in order, with its number, title, status and date", () => {
    const listed = lines.map((line) => {
      const match = /^- \*\*(\d{3})\*\* \[(.+)\]\((\d{3}-[^)]+\.md)\): (.+)\. (\d{4}-\d{2}-\d{2})$/.exec(
        line,
      );
      expect(match, line).not.toBeNull();
      const [, number, , file, status] = match!;
      expect(file.startsWith(number), line).toBe(true);
      expect(status, line).toMatch(/^(accepted|replaced by \d{3}|superseded by \d{3})/);
      return file;
    });
    expect(listed).toEqual(records);
  });

  it("marks a record replaced or superseded at the top of its own file too", () => {
    const replaced = lines.filter((line) => /\): replaced by/.test(line)).map((line) => line.slice(4, 7));
    expect(replaced.length).toBeGreaterThan(0);
    for (const number of replaced) {
      const file = records.find((name) => name.startsWith(number))!;
      const top = readFileSync(path.join(decisionsDir, file), "utf8").split("\n").slice(0, 4).join(" ");
      expect(top, file).toMatch(/Status: replaced by decision \d{3}/);
    }
  });
});
