/**
 * A card's decorative picture, filling its frame. `priority`: the card is among the first on screen,
 * so its picture (likely the page's largest paint) loads at once instead of waiting for layout, as
 * lazy images do.
 */
export function CardPicture({ src, priority }: { src: string; priority: boolean }) {
  return (
    <img
      src={src}
      alt=""
      className="size-full object-cover"
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : "auto"}
      decoding="async"
    />
  );
}
