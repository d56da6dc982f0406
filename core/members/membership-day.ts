import type { Clock } from "../../lib/clock";
import { dateIn, isTimeZone } from "../../lib/time-zones";
import type { SettingsService } from "../settings/settings.service";
import { currentCutoff, DEFAULT_GRACE_DAYS } from "./members.values";

/** How long the two settings are kept without a sign of change (a change by another process outside a request, e.g. a CLI). */
const TERMS_TTL_MS = 60_000;

export type MembershipDay = {
  /** Today in the site's time zone (YYYY-MM-DD). */
  today: string;
  /** The earliest renews_on still current today (today less the grace period). */
  cutoff: string;
  graceDays: number;
};

/**
 * What "current" is measured against (decision 0044): today in the site's time zone (setting
 * `site.timezone`) and the grace period (setting `members.grace_days`, 30 days by default).
 * Every signed-in request asks (the session lookup decides members' access with it), so the two
 * settings are kept in memory while the content version stamp (moved by every admin change, the
 * settings screen's included, in any process) and this process's own settings writes stay where
 * they were, and for a minute at most. The day itself is worked out on every call.
 */
export function createMembershipDay(deps: {
  settings: Pick<SettingsService, "getAll" | "generation">;
  clock: Clock;
  /** The content version as known without waiting (content-version.service `known`); null: not known, read again. */
  version?: () => number | null;
}) {
  let kept: { version: number; generation: number; at: number; zone: string; graceDays: number } | null = null;

  async function terms(): Promise<{ zone: string; graceDays: number }> {
    const version = deps.version?.() ?? null;
    const generation = deps.settings.generation();
    const at = performance.now();
    if (
      kept &&
      version !== null &&
      kept.version === version &&
      kept.generation === generation &&
      at - kept.at < TERMS_TTL_MS
    ) {
      return kept;
    }
    const settings = await deps.settings.getAll();
    const zone = isTimeZone(settings["site.timezone"]) ? settings["site.timezone"] : "UTC";
    const days = Number(settings["members.grace_days"]);
    const graceDays = Number.isInteger(days) && days >= 0 && days <= 365 ? days : DEFAULT_GRACE_DAYS;
    kept = version === null ? null : { version, generation, at, zone, graceDays };
    return { zone, graceDays };
  }

  return async function membershipDay(): Promise<MembershipDay> {
    const { zone, graceDays } = await terms();
    const today = dateIn(deps.clock(), zone);
    return { today, cutoff: currentCutoff(today, graceDays), graceDays };
  };
}
export type MembershipDayOf = ReturnType<typeof createMembershipDay>;
