import type { Clock } from "../../lib/clock";
import { parseOrThrow } from "../../lib/validation";
import type { SettingsRepository } from "./settings.repository";
import { type SettingsUpdate, settingsUpdateSchema } from "./settings.schema";

/** The keys of SPEC §1 and §3 plus the site's name and tagline. */
export const SETTING_KEYS = [
  "site.name",
  "site.tagline",
  "site.email",
  "site.phone",
  "site.twitter",
  "site.youtube",
  "site.linkedin",
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** What header and footer show (SPEC §1): the contact keys and the company name. */
export const CONTACT_KEYS = [
  "site.email",
  "site.phone",
  "site.twitter",
  "site.youtube",
  "site.linkedin",
  "site.name",
] as const;
export type SiteSettings = Record<SettingKey, string>;

export const DEFAULT_SETTINGS: SiteSettings = {
  "site.name": "Masthead",
  "site.tagline": "International association of marine electronics companies",
  "site.email": "",
  "site.phone": "",
  "site.twitter": "",
  "site.youtube": "",
  "site.linkedin": "",
};

export function createSettingsService(deps: { repository: SettingsRepository; clock: Clock }) {
  return {
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
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
