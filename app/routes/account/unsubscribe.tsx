import { MailX } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import type { UnsubscribeKind } from "../../../core/notifications/unsubscribe";
import { PageHero } from "../../components/layout/page-hero";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/unsubscribe";

/** Served as islands (decision 0033): a page and a plain form, posted to the server. */
export const handle = SERVED_AS_ISLANDS;

export const LINK_INVALID =
  "This unsubscribe link is not valid: it may be mistyped or cut short. Sign in and open your notification preferences to choose what you receive.";

const WHAT: Record<UnsubscribeKind, { name: string; done: string }> = {
  notices: {
    name: "the notices sent at once about what you follow",
    done: "You will receive no more notices at once about what you follow. Your digest, if you have one, goes on.",
  },
  digest: {
    name: "the digest of what you follow",
    done: "You will receive no more digests. Notices you asked for at once go on.",
  },
  announcements: {
    name: "announcements to the members",
    done: "You will receive no more announcements to the members.",
  },
};

export const meta: Route.MetaFunction = () => [
  { title: "Unsubscribe · Masthead" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

// The address names a member: never cached anywhere, never sent on in a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ context, params }: Route.LoaderArgs) {
  const target = await getRequestContext(context).services.notifications.unsubscribeTarget(params.token);
  if (!target) throw data(LINK_INVALID, { status: 404, headers: NO_STORE });
  return data({ kind: target.kind }, { headers: NO_STORE });
}

/**
 * RFC 8058's one-click unsubscribe: the mail provider posts `List-Unsubscribe=One-Click` to the
 * address in the List-Unsubscribe header, with no session and from elsewhere (the CSRF check lets
 * this path through: the signed address is the credential). The page's own button posts the same.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form["List-Unsubscribe"] !== "One-Click") {
    throw data("Send List-Unsubscribe=One-Click to unsubscribe.", { status: 400, headers: NO_STORE });
  }
  const kind = await getRequestContext(context).services.notifications.unsubscribe(params.token);
  if (!kind) throw data(LINK_INVALID, { status: 404, headers: NO_STORE });
  return data({ done: WHAT[kind].done }, { headers: NO_STORE });
}

/** `/unsubscribe/{token}`: stop one kind of mail in one click, without signing in (issue 33). */
export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const what = WHAT[loaderData.kind];
  const sending = useNavigation().state === "submitting";
  const done = (actionData as { done?: string } | undefined)?.done;
  return (
    <div>
      <PageHero eyebrow="E-mail" title="Unsubscribe" />
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <section
          aria-labelledby="unsubscribe-title"
          className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <div className="flex gap-4">
            <MailX className="h-8 w-8 shrink-0 text-sea-600" aria-hidden="true" />
            <div>
              <h2 id="unsubscribe-title" className="font-display text-xl font-bold text-navy-900">
                {done ? "You are unsubscribed" : `Stop ${what.name}?`}
              </h2>
              {done ? (
                <Notice tone="success">{done}</Notice>
              ) : (
                <Form method="post" className="mt-4">
                  <input type="hidden" name="List-Unsubscribe" value="One-Click" />
                  <button type="submit" className="btn bg-navy-900 text-white hover:bg-navy-800" disabled={sending}>
                    {sending ? "Unsubscribing…" : "Unsubscribe"}
                  </button>
                </Form>
              )}
              <p className="mt-4 text-sm text-slate-600">
                To choose what you follow and how often you hear of it, sign in and open your{" "}
                <Link to="/dashboard/notifications" className="font-semibold text-sea-700 underline hover:text-sea-600">
                  notification preferences
                </Link>
                .
              </p>
            </div>
          </div>
        </section>
      </div>
    </div>
  );
}
