import type { Clock } from "../../lib/clock";
import { parseOrThrow } from "../../lib/validation";
import type { SettingsRepository } from "./settings.repository";
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  type SettingKey,
  type SettingsUpdate,
  type SiteSettings,
  settingsUpdateSchema,
} from "./settings.schema";

export function createSettingsService(deps: { repository: SettingsRepository; clock: Clock }) {
  /** Moves with every change made through this process: what keeps settings in memory checks it. */
  let generation = 0;
  return {
    generation: () => generation,
    async getAll(): Promise<SiteSettings> {
      const rows = await deps.repository.getMany(SETTING_KEYS);
      const settings = { ...DEFAULT_SETTINGS };
      for (const row of rows) settings[row.key as SettingKey] = row.value;
      return settings;
    },
    /** An admin's change: validated, then visible on the next request. */
    async update(input: SettingsUpdate): Promise<SiteSettings> {
      const parsed = parseOrThrow(settingsUpdateSchema, input);
      await this.set(parsed);
      return this.getAll();
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
}
export type SettingsService = ReturnType<typeof createSettingsService>;
