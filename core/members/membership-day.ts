import type { Clock } from "../../lib/clock";
import { dateIn, isTimeZone } from "../../lib/time-zones";
import type { SettingsService } from "../settings/settings.service";
import { currentCutoff, DEFAULT_GRACE_DAYS } from "./members.values";

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
 * Every signed-in request asks (the session lookup decides members' access with it); the settings
 * service keeps the settings in memory while nothing has changed them (decision 0069). The day
 * itself is worked out on every call.
 */
export function createMembershipDay(deps: { settings: Pick<SettingsService, "getAll">; clock: Clock }) {
  return async function membershipDay(): Promise<MembershipDay> {
    const settings = await deps.settings.getAll();
    const zone = isTimeZone(settings["site.timezone"]) ? settings["site.timezone"] : "UTC";
    const days = Number(settings["members.grace_days"]);
    const graceDays = Number.isInteger(days) && days >= 0 && days <= 365 ? days : DEFAULT_GRACE_DAYS;
    const today = dateIn(deps.clock(), zone);
    return { today, cutoff: currentCutoff(today, graceDays), graceDays };
  };
}
export type MembershipDayOf = ReturnType<typeof createMembershipDay>;
