import { FileText, Globe2, type LucideIcon, MapPin, MonitorPlay, Users } from "lucide-react";

/**
 * Icons that lists repeat on every row (a meeting's format and place, a paper), defined once per page as
 * SVG symbols and drawn with <use>: the events calendar's 60 rows carried 120 copies of their
 * paths, about 50 KB of its 212 KB, and as many elements for every render of a signed-in page.
 */
const SPRITE = {
  users: Users,
  "monitor-play": MonitorPlay,
  "globe-2": Globe2,
  "map-pin": MapPin,
  "file-text": FileText,
} satisfies Record<string, LucideIcon>;

export type SpriteName = keyof typeof SPRITE;

/** The symbols, once per page (the root layout). */
export function IconSprite() {
  return (
    <svg aria-hidden="true" focusable="false" width="0" height="0" className="absolute h-0 w-0 overflow-hidden">
      {Object.entries(SPRITE).map(([name, Icon]) => (
        <symbol key={name} id={`icon-${name}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  );
}

/** One of the sprite's icons, sized by its class like a lucide icon; decorative (the words beside it say the same). */
export function SpriteIcon({ name, className = "" }: { name: SpriteName; className?: string }) {
  return (
    <svg className={`lucide lucide-${name} ${className}`} aria-hidden="true" focusable="false">
      <use href={`#icon-${name}`} />
    </svg>
  );
}
