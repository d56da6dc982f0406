import { ArrowRight, Radio, ShieldCheck, Waves } from "lucide-react";
import { Link } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { UpcomingMeetings } from "../../components/events/upcoming-meetings";
import { PostCard } from "../../components/news/post-card";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useRootData } from "../../root";
import type { Route } from "./+types/home";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const [members, latest, meetings, welcome] = await Promise.all([
    services.members.summary(),
    services.news.latest(3),
    services.meetings.upcoming(3),
    services.pages.homePage(),
  ]);
  return { members, latest, meetings, welcome };
}

export const meta: Route.MetaFunction = ({ matches }) => seoMeta({ matches, path: "/" });

const PILLARS = [
  {
    icon: Radio,
    title: "Standards that work at sea",
    text: "Members shape the IEC, IMO and ITU standards behind navigation and radio equipment.",
    to: "/standards-guide",
  },
  {
    icon: ShieldCheck,
    title: "Safety and service",
    text: "A service code of practice and manufacturer IDs that owners and flag states rely on.",
    to: "/service-code-of-practice",
  },
  {
    icon: Waves,
    title: "One voice for the industry",
    text: "Manufacturers, service companies and integrators speaking together since the early days of marine radio.",
    to: "/history",
  },
];

/** The landing page. Latest news, upcoming meetings and the member count join as those features land. */
export default function Home({ loaderData }: Route.ComponentProps) {
  const settings = useRootData()?.settings ?? DEFAULT_SETTINGS;
  const { members, latest, meetings, welcome } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 md:py-28">
          <p className="text-sm font-semibold tracking-widest text-signal-500 uppercase">{settings["site.name"]}</p>
          <h1 className="mt-4 max-w-3xl font-display text-4xl leading-tight font-bold sm:text-5xl md:text-6xl">
            {settings["site.tagline"]}
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-navy-100">
            The companies that build, install and service the radio and electronic equipment on the world's ships,
            working together on standards, safety and the future of digital navigation.
          </p>
          <div className="mt-10 flex flex-wrap gap-4">
            <Link
              to="/members-join"
              className="btn bg-signal-500 px-6 py-3 text-base text-navy-950 hover:bg-signal-600"
            >
              Become a member
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
            <Link
              to="/purpose-objectives"
              className="btn border border-white/40 px-6 py-3 text-base text-white hover:bg-white/10"
            >
              About the association
            </Link>
          </div>
        </div>
      </section>
      {members.companies > 0 ? (
        <section aria-label="The association in figures" className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-6 px-4 py-8 sm:flex-row sm:px-6">
            <dl className="flex gap-12 text-center">
              <div>
                <dt className="text-sm text-slate-600">Member companies</dt>
                <dd className="font-display text-4xl font-bold text-navy-900">{members.companies}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-600">Countries</dt>
                <dd className="font-display text-4xl font-bold text-navy-900">{members.countries}</dd>
              </div>
            </dl>
            <Link to="/members-list" className="btn-outline">
              See the list of members
            </Link>
          </div>
        </section>
      ) : null}
      {welcome ? (
        // The /home CMS page: what the admin writes in Manager › Pages › Home shows here (decision 0041).
        <section aria-labelledby="welcome" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="welcome" className="font-display text-3xl font-bold text-navy-900">
            {welcome.title}
          </h2>
          <div
            className="rich-text mt-6 max-w-3xl"
            // Sanitized on write and again on read by the pages service.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
            dangerouslySetInnerHTML={{ __html: welcome.content }}
          />
        </section>
      ) : null}
      <UpcomingMeetings meetings={meetings} />
      {latest.length > 0 ? (
        <section aria-labelledby="latest-news" className="bg-navy-50">
          <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id="latest-news" className="font-display text-3xl font-bold text-navy-900">
                Latest news
              </h2>
              <Link to="/news" className="text-sm font-semibold text-sea-600 hover:underline">
                All news
              </Link>
            </div>
            <ul className="mt-8 grid gap-6 md:grid-cols-3">
              {latest.map((post) => (
                <li key={post.id} className="relative">
                  <PostCard post={post} headingLevel={3} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
      <section aria-labelledby="pillars" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <h2 id="pillars" className="font-display text-3xl font-bold text-navy-900">
          What the association does
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {PILLARS.map(({ icon: Icon, title, text, to }) => (
            <li key={title} className="rounded-xl border border-slate-200 p-6 transition hover:shadow-md">
              <Icon className="h-8 w-8 text-sea-600" aria-hidden="true" />
              <h3 className="mt-4 text-lg font-semibold text-navy-900">
                <Link to={to} className="hover:underline">
                  {title}
                </Link>
              </h3>
              <p className="mt-2 text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
