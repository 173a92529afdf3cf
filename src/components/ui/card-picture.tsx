/**
 * A card's decorative picture in its frame: filling it (`cover`), or whole (`contain`: a banner, whose
 * text must not be cut, letterboxed on the frame's background). `priority`: the card is among the first
 * on screen, so its picture (likely the page's largest paint) loads at once instead of waiting for
 * layout, as lazy images do.
 */
export function CardPicture({
  src,
  priority,
  fit = "cover",
}: {
  src: string;
  priority: boolean;
  fit?: "cover" | "contain";
}) {
  return (
    <img
      src={src}
      alt=""
      className={fit === "cover" ? "size-full object-cover" : "size-full object-contain"}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : "auto"}
      decoding="async"
    />
  );
}
