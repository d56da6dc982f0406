import type { MeetingImage } from "../../../core/meetings/meetings.schema";

/**
 * A meeting's picture from its stored variants, with its alt text ("" when decorative or not
 * described yet, decision 0041); `sizes` says how wide the layout shows it.
 * Below the fold it loads lazily; the page's main picture asks for priority.
 */
export function MeetingPicture({
  image,
  sizes,
  className,
  priority = false,
}: {
  image: MeetingImage;
  sizes: string;
  className: string;
  priority?: boolean;
}) {
  return (
    <img
      src={image.url}
      srcSet={image.srcset ?? undefined}
      sizes={sizes}
      alt={image.alt}
      width={image.width ?? 1600}
      height={image.height ?? 1000}
      {...(priority ? { fetchPriority: "high" as const } : { loading: "lazy" as const, decoding: "async" as const })}
      className={className}
    />
  );
}
