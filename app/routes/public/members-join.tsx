import { getRequestContext } from "../../context";
import { optionalPage } from "../../lib/cms";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/members-join";

/** The membership page: why and how to join; the join form sits below it (the footer's contact block). */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const [page, memberCount] = await Promise.all([optionalPage(services, "/members-join"), services.members.count()]);
  return { title: page?.title ?? "Join the association", content: page?.content ?? null, memberCount };
}

export const meta: Route.MetaFunction = ({ matches, data: loaderData }) =>
  seoMeta({
    matches,
    title: loaderData?.title ?? "Join",
    description: "How to become a member of the association.",
    path: "/members-join",
  });

export default function MembersJoin({ loaderData }: Route.ComponentProps) {
  const { title, content, memberCount } = loaderData;
  return (
    <div>
      <div className="bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 md:py-16">
          <p className="text-sm font-semibold tracking-widest text-signal-500 uppercase">Membership</p>
          <h1 className="mt-3 font-display text-4xl font-bold sm:text-5xl">{title}</h1>
          {memberCount > 0 ? (
            <p className="mt-4 text-lg text-navy-100">{memberCount} companies are members today.</p>
          ) : null}
        </div>
      </div>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        {content ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the pages service
          <article className="rich-text max-w-3xl" dangerouslySetInnerHTML={{ __html: content }} />
        ) : null}
        <p className="mt-8">
          <a href="#contact-us" className="btn-primary">
            Send a membership request
          </a>
        </p>
      </div>
    </div>
  );
}
