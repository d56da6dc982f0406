import { Lock } from "lucide-react";
import { meetingTypeLabel } from "../../../core/meetings/meetings.values";
import { SpriteIcon, type SpriteName } from "../ui/icon-sprite";

/** Light tints with dark text, so every badge keeps a 4.5:1 contrast. */
const TYPE_STYLES: Record<string, string> = {
  conference: "bg-navy-100 text-navy-900",
  workshop: "bg-sea-100 text-sea-700",
  meeting: "bg-slate-100 text-slate-700",
  webinar: "bg-amber-100 text-amber-900",
};

export function TypeBadge({ type, className = "" }: { type: string; className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${TYPE_STYLES[type] ?? TYPE_STYLES.meeting} ${className}`}
    >
      {meetingTypeLabel(type)}
    </span>
  );
}

/** A meeting only signed-in users see (issue 13 'Visibility'); the word, not the colour, says it. */
export function MembersOnlyBadge({ className = "" }: { className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full bg-signal-500 px-2.5 py-0.5 text-xs font-semibold text-navy-950 ${className}`}
    >
      <Lock className="h-3 w-3" aria-hidden="true" />
      Members only
    </span>
  );
}

const FORMAT_ICONS: Record<string, SpriteName> = { "In person": "users", Online: "monitor-play", Hybrid: "globe-2" };

/** In person, Online or Hybrid, with an icon that only repeats the words. */
export function FormatLabel({ format, className = "" }: { format: string | null; className?: string }) {
  if (!format) return null;
  const icon = FORMAT_ICONS[format] ?? "users";
  return (
    <span className={`inline-flex items-center gap-1.5 ${className}`}>
      <SpriteIcon name={icon} className="h-4 w-4 shrink-0" />
      {format}
    </span>
  );
}

export function LocationLabel({ location, className = "" }: { location: string | null; className?: string }) {
  if (!location) return null;
  return (
    <span className={`inline-flex items-start gap-1.5 ${className}`}>
      <SpriteIcon name="map-pin" className="mt-0.5 h-4 w-4 shrink-0" />
      {location}
    </span>
  );
}
