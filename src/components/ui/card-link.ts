/**
 * The title link of a card whose whole area is the link's target: its ::after covers the card (the
 * card is `relative`), so there is one link with the title as its name, and the focus ring outlines
 * the whole card, drawn inside its edge (cards clip what overflows them). Buttons inside the card sit
 * above the overlay (`relative z-10`).
 */
export const CARD_LINK_CLASS =
  "after:absolute after:inset-0 after:rounded-2xl hover:underline focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-primary-600";
