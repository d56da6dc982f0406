import { describeReminders } from "../join/meeting-reminders.service";
import { describeNotices } from "../members/renewals.service";
import { describeNoticesRun, isIdleNoticesRun } from "../notifications/notices.service";
import { describeRetention } from "../privacy/retention.service";
import { defineJob, type JobDefinition } from "./job";

/**
 * The site's scheduled jobs: the one place a job is declared (decision 0045). A job translates its
 * due time into a call of its area's service, which holds the rules and makes each step idempotent.
 * Times are in the site's time zone (setting site.timezone).
 */
export const SITE_JOBS: readonly JobDefinition[] = [
  defineJob({
    name: "uploads-sweep",
    // Daily, at a quiet hour (decision 0015): files a crash left without their row, editor images never saved.
    schedule: "40 3 * * *",
    description: "Removes uploaded files no row references: older than an hour (editor images: a day). Decision 0015.",
    async run({ services, signal, log }) {
      const result = await services.media.sweepUploads({ signal });
      if (result.orphans.length) log.info({ files: result.orphans.slice(0, 100) }, "orphaned uploads removed");
      return (
        `${result.scanned} files checked; ${result.orphans.length} removed; ` +
        `${result.young} unreferenced but too recent to remove.`
      );
    },
  }),
  defineJob({
    name: "audit-retention",
    // Daily, at a quiet hour: the audit log keeps its rows for audit.retention_days (decision 0074).
    schedule: "50 3 * * *",
    description:
      "Removes the audit log's rows older than audit.retention_days (default 730: two years); nothing else removes one. Decision 0074.",
    async run({ services, signal }) {
      const removed = await services.audit.prune({ signal });
      return `${removed} audit ${removed === 1 ? "row" : "rows"} past the retention removed.`;
    },
  }),
  defineJob({
    name: "retention",
    // Daily, at a quiet hour, after the other clean-ups: personal data kept only as long as it serves (issue 35).
    schedule: "0 4 * * *",
    description:
      "Erases the person from requests past privacy.retention_months (default 24) after they were handled or the meeting ended; removes sent mail (queue and outbox) after 90 days, and expired sessions, tokens, links and limits. Decision 0078.",
    async run({ services, signal }) {
      return describeRetention(await services.retention.run({ signal }));
    },
  }),
  defineJob({
    name: "membership-renewals",
    // Daily, at the start of the secretariat's working day: what is owed is worked out from the date.
    schedule: "0 7 * * *",
    description:
      "Mails the primary contacts of member companies: a reminder before renews_on (setting members.reminder_days), a notice when the company lapses; each once. Decision 0049.",
    async run({ services, origin, signal }) {
      return describeNotices(await services.renewals.sendNotices({ origin, signal }));
    },
  }),
  defineJob({
    name: "meeting-reminders",
    // Daily, in the morning: a meeting two days away is reminded of once, whichever process runs it.
    schedule: "0 8 * * *",
    description:
      "Mails each confirmed attendee once, meetings.reminder_days days before the meeting starts (by the meeting's own calendar). Issue 32.",
    async run({ services, origin, signal }) {
      return describeReminders(await services.meetingReminders.sendReminders({ origin, signal }));
    },
  }),
  defineJob({
    name: "notices",
    // Every minute: an item leaves within NOTIFY_BATCH_SECONDS, with what came together with it.
    schedule: "* * * * *",
    description:
      "Mails members what they follow at once (a paper, a revision, a news post, a meeting), batched: what comes together is one mail. Decision 0065.",
    async run({ services, signal }) {
      // Scheduled posts whose time has come are told of first, so that this run's notices carry them (decision 0071).
      await services.news.announceDue();
      return describeNoticesRun(await services.notices.sendInstant({ signal }));
    },
    // Every minute: a minute with nothing to tell is not worth a line at info level.
    idle: isIdleNoticesRun,
  }),
  defineJob({
    name: "digest-daily",
    // Early each morning, before the working day: yesterday's news in one mail.
    schedule: "0 7 * * *",
    description:
      "Mails each member whose digest is daily what is new in what they follow since the last one. Decision 0065.",
    async run({ services, signal }) {
      return describeNoticesRun(await services.notices.sendDigest("daily", { signal }));
    },
  }),
  defineJob({
    name: "digest-weekly",
    // Monday morning (issue 33): the week's news in one mail.
    schedule: "0 7 * * 1",
    description:
      "Mails each member whose digest is weekly what is new in what they follow since the last one. Decision 0065.",
    async run({ services, signal }) {
      return describeNoticesRun(await services.notices.sendDigest("weekly", { signal }));
    },
  }),
];
