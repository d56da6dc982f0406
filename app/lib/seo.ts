import type { MetaDescriptor } from "react-router";
import { DEFAULT_SETTINGS, type SiteSettings } from "../../core/settings/settings.service";

type RootData = { settings?: SiteSettings; origin?: string } | undefined;

/** The root loader's data as seen from a meta function. */
export function rootMeta(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData;
  return { settings: root?.settings ?? DEFAULT_SETTINGS, origin: root?.origin ?? "" };
}

/** Title, description, canonical URL, OpenGraph and Twitter card for a public page. */
export function seoMeta(options: {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  title?: string;
  description?: string;
  path: string;
  type?: "website" | "article";
}): MetaDescriptor[] {
  const { settings, origin } = rootMeta(options.matches);
  const siteName = settings["site.name"];
  const title = options.title ? `${options.title} · ${siteName}` : `${siteName} · ${settings["site.tagline"]}`;
  const description = options.description || settings["site.tagline"];
  const url = `${origin}${options.path}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:title", content: options.title ?? siteName },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: options.title ?? siteName },
    { name: "twitter:description", content: description },
  ];
}
