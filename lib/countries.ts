import { createRequire } from "node:module";
import type * as Countries from "i18n-iso-countries";

/**
 * ISO 3166-1 countries from a kept list (i18n-iso-countries), for the server only: the package's
 * Node entry loads all of its 80 languages (about 700 KB of JSON), so its code-only module is
 * loaded with the English names alone. Loaded through require: the names are JSON, which Node's
 * ESM loader takes only with an import attribute that the bundlers here do not all keep.
 */
const require = createRequire(import.meta.url);
const countries = require("i18n-iso-countries/index") as typeof Countries;
countries.registerLocale(require("i18n-iso-countries/langs/en.json") as Countries.LocaleData);

/** Whether `code` is an assigned ISO 3166-1 alpha-2 code (upper case: 'NO', not 'no'). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/** The country's English short name ('NO' → 'Norway'); null for a code that is none. */
export function countryName(code: string): string | null {
  return isCountryCode(code) ? (countries.getName(code, "en") ?? null) : null;
}

/** Every country, by English name: what a country field offers. */
export function countryChoices(): { code: string; name: string }[] {
  return Object.entries(countries.getNames("en", { select: "official" }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/**
 * The code of a country written as a spreadsheet has it: a code ('no', 'NO') or its English
 * name, short or official ('Norway', 'United Kingdom'); null when it is neither.
 */
export function countryCode(text: string): string | null {
  const trimmed = text.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return isCountryCode(trimmed.toUpperCase()) ? trimmed.toUpperCase() : null;
  return trimmed ? (countries.getAlpha2Code(trimmed, "en") ?? null) : null;
}
