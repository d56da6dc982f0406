import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { safeRedirectPath } from "../../../core/auth/auth.schema";
import { MESSAGE_FORM_PAGES, thanksFor } from "../../../core/join/join.values";
import { PageHero } from "../../components/layout/page-hero";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import type { Route } from "./+types/join-thanks";

/** The thank-you page of the join form without JavaScript; the text follows the page it was sent from. */
export const handle = SERVED_AS_ISLANDS;

export function loader({ url }: Route.LoaderArgs) {
  const back = safeRedirectPath(url.searchParams.get("from"), "/");
  const message = (MESSAGE_FORM_PAGES as readonly string[]).includes(back);
  const waitlisted = url.searchParams.get("waitlisted") === "1";
  return {
    back,
    text: thanksFor(back, waitlisted ? { status: "waitlisted" } : null),
    eyebrow: message ? "Contact" : "Membership",
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Thank you! · Masthead" },
  { name: "robots", content: "noindex" },
];

export default function JoinThanks({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <PageHero eyebrow={loaderData.eyebrow} title="Thank you!" />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <div className="flex gap-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <CheckCircle2 className="h-8 w-8 shrink-0 text-sea-600" aria-hidden="true" />
          <div>
            <p className="text-lg text-slate-700">{loaderData.text}</p>
            <Link to={loaderData.back} className="btn-outline mt-6">
              Back to the page
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}
