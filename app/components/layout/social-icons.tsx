import type { SiteSettings } from "../../../core/settings/settings.schema";

/** lucide has no brand icons; these are simple single-path marks. */
const PATHS = {
  twitter:
    "M18.9 2H22l-7.6 8.7L23 22h-6.9l-5.4-7-6.2 7H1.4l8.1-9.3L1 2h7l4.9 6.5L18.9 2Zm-1.2 18h1.9L7.4 4H5.4l12.3 16Z",
  youtube:
    "M23.5 6.2a3 3 0 0 0-2.1-2.1C19.5 3.6 12 3.6 12 3.6s-7.5 0-9.4.5A3 3 0 0 0 .5 6.2 31 31 0 0 0 0 12a31 31 0 0 0 .5 5.8 3 3 0 0 0 2.1 2.1c1.9.5 9.4.5 9.4.5s7.5 0 9.4-.5a3 3 0 0 0 2.1-2.1A31 31 0 0 0 24 12a31 31 0 0 0-.5-5.8ZM9.6 15.6V8.4l6.3 3.6-6.3 3.6Z",
  linkedin:
    "M20.4 20.5h-3.6v-5.6c0-1.3 0-3-1.8-3s-2.1 1.4-2.1 2.9v5.7H9.3V9h3.4v1.6c.5-.9 1.7-1.8 3.4-1.8 3.6 0 4.3 2.4 4.3 5.5v6.2ZM5.3 7.4a2.1 2.1 0 1 1 0-4.2 2.1 2.1 0 0 1 0 4.2Zm1.8 13.1H3.5V9h3.6v11.5ZM22.2 0H1.8C.8 0 0 .8 0 1.7v20.6c0 .9.8 1.7 1.8 1.7h20.4c1 0 1.8-.8 1.8-1.7V1.7C24 .8 23.2 0 22.2 0Z",
} as const;

const NETWORKS = [
  { key: "site.twitter", name: "Twitter", path: PATHS.twitter },
  { key: "site.youtube", name: "YouTube", path: PATHS.youtube },
  { key: "site.linkedin", name: "LinkedIn", path: PATHS.linkedin },
] as const;

/** The social links of SPEC §1 (twitter, youtube, linkedin), those that are set. */
export function SocialIcons({ settings, className = "h-4 w-4" }: { settings: SiteSettings; className?: string }) {
  return (
    <ul className="flex items-center gap-1">
      {NETWORKS.filter((n) => /^https?:\/\//.test(settings[n.key])).map((n) => (
        <li key={n.key}>
          <a
            href={settings[n.key]}
            target="_blank"
            rel="noopener noreferrer"
            className="flex h-8 w-8 items-center justify-center rounded-full opacity-85 hover:bg-white/10 hover:opacity-100"
          >
            <svg viewBox="0 0 24 24" className={className} fill="currentColor" aria-hidden="true" focusable="false">
              <path d={n.path} />
            </svg>
            <span className="sr-only">{`${settings["site.name"]} on ${n.name}`}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
