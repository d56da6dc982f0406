import { PageHero } from "../../components/layout/page-hero";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { optionalPage } from "../../lib/cms";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/members-join";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

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
      <PageHero eyebrow="Membership" title={title}>
        {memberCount > 0 ? (
          <p className="mt-4 text-lg text-navy-100">{memberCount} companies are members today.</p>
        ) : null}
      </PageHero>
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
