import { ExternalLink } from "lucide-react";
import type { Sponsor } from "../../../core/meetings/meetings.schema";

function Logo({ sponsor }: { sponsor: Sponsor }) {
  return sponsor.image ? (
    <img
      src={sponsor.image}
      alt={sponsor.name}
      width={200}
      height={100}
      loading="lazy"
      decoding="async"
      className="h-20 w-auto max-w-full object-contain"
    />
  ) : (
    <span className="text-center font-semibold text-navy-900">{sponsor.name}</span>
  );
}

/** Sponsors in their order, each logo linking out to the sponsor's site in a new tab. */
export function SponsorGrid({ sponsors }: { sponsors: Sponsor[] }) {
  const box = "flex h-28 items-center justify-center rounded-xl border border-slate-200 bg-white p-4";
  return (
    <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3">
      {sponsors.map((sponsor) => (
        <li key={sponsor.id}>
          {sponsor.link ? (
            <a
              href={sponsor.link}
              target="_blank"
              rel="noopener noreferrer"
              className={`${box} group relative transition hover:border-navy-900/30 hover:shadow-md`}
            >
              <Logo sponsor={sponsor} />
              <ExternalLink
                className="absolute top-2 right-2 h-3.5 w-3.5 text-slate-400 group-hover:text-navy-900"
                aria-hidden="true"
              />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : (
            <div className={box}>
              <Logo sponsor={sponsor} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
