import type { Clock } from "../../lib/clock";
import { parseOrThrow } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { SettingsRepository } from "./settings.repository";
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  type SettingKey,
  type SettingsUpdate,
  type SiteSettings,
  settingsUpdateSchema,
} from "./settings.schema";

/** How long settings are kept without a sign of change (a change by another process outside a request, e.g. a CLI). */
const KEPT_MS = 60_000;

/**
 * The site's settings. Every request reads some (a page's name and footer, a form's mails), so they
 * are kept in memory while the content version stamp (moved by every admin change, the settings
 * screen's included, in any process) and this process's own writes stay where they were, and for a
 * minute at most (decision 0069; membership-day.ts kept the two it needs so since decision 0044).
 */
export function createSettingsService(deps: {
  repository: SettingsRepository;
  clock: Clock;
  /** The content version as known without waiting (content-version.service `known`); null: not known, read again. */
  version?: () => number | null;
  /** The audit log (decision 0074), bound late: it reads the settings itself. */
  audit?: () => Pick<AuditService, "record">;
}) {
  /** Moves with every change made through this process: what keeps settings in memory checks it. */
  let generation = 0;
  let kept: { version: number; generation: number; at: number; settings: SiteSettings } | null = null;
  const service = {
    generation: () => generation,
    async getAll(): Promise<SiteSettings> {
      // The stamp is read before the settings: a change that lands between the two moves it past what is kept.
      const version = deps.version?.() ?? null;
      const at = performance.now();
      if (
        kept &&
        version !== null &&
        kept.version === version &&
        kept.generation === generation &&
        at - kept.at < KEPT_MS
      ) {
        return { ...kept.settings };
      }
      const readAt = generation;
      const rows = await deps.repository.getMany(SETTING_KEYS);
      const settings = { ...DEFAULT_SETTINGS };
      for (const row of rows) settings[row.key as SettingKey] = row.value;
      // A write of this process during the read leaves nothing kept: the next call reads again.
      kept = version === null || readAt !== generation ? null : { version, generation, at, settings: { ...settings } };
      return settings;
    },
    /** An admin's change: validated, then visible on the next request. */
    async update(input: SettingsUpdate): Promise<SiteSettings> {
      const parsed = parseOrThrow(settingsUpdateSchema, input);
      const before = await service.getAll();
      await service.set(parsed);
      const after = await service.getAll();
      const changed = SETTING_KEYS.filter((key) => before[key] !== after[key]);
      if (changed.length > 0) {
        await deps.audit?.().record({
          action: "update",
          entity: "settings",
          entityId: null,
          summary: `Site settings changed: ${changed.join(", ")}`,
          before: Object.fromEntries(changed.map((key) => [key, before[key]])),
          after: Object.fromEntries(changed.map((key) => [key, after[key]])),
        });
      }
      return after;
    },

    async set(values: Partial<SiteSettings>): Promise<void> {
      const now = deps.clock().toISOString();
      for (const [key, value] of Object.entries(values)) {
        if ((SETTING_KEYS as readonly string[]).includes(key) && typeof value === "string") {
          await deps.repository.upsert(key, value, now);
        }
      }
      generation += 1;
    },
  };
  return service;
}
export type SettingsService = ReturnType<typeof createSettingsService>;
