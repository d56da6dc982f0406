import type { PaperFile } from "../../../core/library/library.schema";

/**
 * Paper dates are calendar days (YYYY-MM-DD): read as UTC so that no time zone moves them.
 * The magazine's edition is a month; everything else a day.
 */
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const MONTH = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

function asDate(value: string): Date | null {
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatPaperDate(value: string, style: "day" | "month" = "day"): string {
  const date = asDate(value);
  if (!date) return value;
  return (style === "month" ? MONTH : DAY).format(date);
}

/** "1.2 MB", "340 KB", "812 bytes": what a reader weighs before downloading. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} byte${size === 1 ? "" : "s"}`;
  const kb = size / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1024;
  if (mb < 1024) return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
  return `${(mb / 1024).toFixed(1)} GB`;
}

/** "PDF, 1.2 MB" (or "PDF" when the size is not known). */
export function fileFacts(file: PaperFile): string {
  return file.size === null ? file.label : `${file.label}, ${formatBytes(file.size)}`;
}
