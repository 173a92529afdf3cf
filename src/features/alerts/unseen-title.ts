/**
 * A go-live notice shown in a hidden tab marks the tab's title, so the person sees in the tab strip that
 * something is waiting there; the mark goes when they come back to the tab.
 */
export const UNSEEN_TITLE_MARK = "● ";

/** The title with the mark in front (once, however often it is marked). */
export function withUnseenMark(title: string): string {
  return title.startsWith(UNSEEN_TITLE_MARK) ? title : `${UNSEEN_TITLE_MARK}${title}`;
}

/** The title without the mark; a title that has none is returned as it is. */
export function withoutUnseenMark(title: string): string {
  return title.startsWith(UNSEEN_TITLE_MARK) ? title.slice(UNSEEN_TITLE_MARK.length) : title;
}
