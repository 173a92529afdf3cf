import { expect, test } from "vitest";
import { UNSEEN_TITLE_MARK, withoutUnseenMark, withUnseenMark } from "../unseen-title";

test("the mark is added once and removed once, leaving other titles alone", () => {
  const marked = withUnseenMark("Watch list · LiveLocal");
  expect(marked).toBe(`${UNSEEN_TITLE_MARK}Watch list · LiveLocal`);
  expect(withUnseenMark(marked)).toBe(marked);
  expect(withoutUnseenMark(marked)).toBe("Watch list · LiveLocal");
  expect(withoutUnseenMark("Watch list · LiveLocal")).toBe("Watch list · LiveLocal");
});
