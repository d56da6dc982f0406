import type { MetaDescriptor } from "react-router";
import { DEFAULT_SETTINGS } from "../../core/settings/settings.defaults";
import type { SiteSettings } from "../../core/settings/settings.schema";

type RootData = { settings?: SiteSettings; origin?: string } | undefined;

/** The root loader's data as seen from a meta function. */
export function rootMeta(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData;
  return { settings: root?.settings ?? DEFAULT_SETTINGS, origin: root?.origin ?? "" };
}

/**
 * An address as social networks need it: absolute, on the public origin
 * (BASE_URL). Uploads are stored as site paths (`/uploads/…`); an address
 * that is already absolute (a CDN) is kept.
 */
export function absoluteUrl(origin: string, address: string): string {
  try {
    return new URL(address, origin || undefined).href;
  } catch {
    return address;
  }
}

/** Title, description, canonical URL, OpenGraph and Twitter card (with its picture, if any) for a public page. */
export function seoMeta(options: {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  title?: string;
  description?: string;
  path: string;
  type?: "website" | "article";
  /** The page's picture (og:image, twitter:image), made absolute here. */
  image?: string | null;
  /** The picture's alt text (og:image:alt, twitter:image:alt), when it has one. */
  imageAlt?: string;
}): MetaDescriptor[] {
  const { settings, origin } = rootMeta(options.matches);
  const siteName = settings["site.name"];
  const title = options.title ? `${options.title} · ${siteName}` : `${siteName} · ${settings["site.tagline"]}`;
  const description = options.description || settings["site.tagline"];
  const url = `${origin}${options.path}`;
  const image = options.image ? absoluteUrl(origin, options.image) : null;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:title", content: options.title ?? siteName },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: options.title ?? siteName },
    { name: "twitter:description", content: description },
    ...(image
      ? [
          { property: "og:image", content: image },
          { name: "twitter:image", content: image },
          ...(options.imageAlt
            ? [
                { property: "og:image:alt", content: options.imageAlt },
                { name: "twitter:image:alt", content: options.imageAlt },
              ]
            : []),
        ]
      : []),
  ];
}
