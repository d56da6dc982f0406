import { data } from "react-router";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { type MyRegistrationsAnswer, MyRegistrationsList } from "../../components/events/my-registrations";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/my-registrations";

export const meta: Route.MetaFunction = () => [{ title: "My registrations · Members area" }];

/**
 * /dashboard/registrations: the signed-in person's registrations (issue 32). Personal: no `handle`,
 * so never one of the shared renders of decision 0032; /dashboard/events shows the same list as an
 * island that reads this loader.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const registrations = await services.registrations.mine(personOf(auth.user));
  const asking = parseId(url.searchParams.get("cancel"));
  return data(
    {
      registrations: registrations.map(
        ({ id, status, title, slug, visibility, start_date, end_date, location, representative_name }) => ({
          id,
          status,
          title,
          slug,
          visibility,
          start_date,
          end_date,
          location,
          representative_name,
        }),
      ),
      asking,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const personOf = (user: { id: number; email: string; first_name: string; last_name: string }) => ({
  id: user.id,
  email: user.email,
  name: `${user.first_name} ${user.last_name}`.trim() || user.email,
});

/** Cancels one of the person's own registrations; another person's is 404, as if it did not exist. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const form = await readForm(request);
  if (form.intent !== "cancel") throw data("Unknown action.", { status: 400 });
  try {
    const cancelled = await services.registrations.cancelMine(personOf(auth.user), formId(form));
    return data<MyRegistrationsAnswer>({
      notice: `Your registration for ${cancelled.meeting_title} is cancelled. We have sent you an e-mail to confirm it.`,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    // A refusal of the change names its field (e.g. "A cancelled registration cannot be cancelled.").
    const message = Object.values(error.details.errors ?? {}).flat()[0] ?? error.message;
    return data<MyRegistrationsAnswer>({ error: message }, { status: error.status });
  }
}

export default function MyRegistrations({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as MyRegistrationsAnswer | undefined;
  return (
    <div>
      <Breadcrumbs trail={[{ label: "Members area", to: "/dashboard" }]} current="My registrations" />
      <p className="mt-6 text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">My registrations</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        Your registrations for meetings that are not over yet: those you sent while signed in, and those sent from your
        e-mail address.
      </p>
      <div className="mt-8 max-w-3xl">
        {answer?.notice ? (
          <Notice tone="success" className="mb-4">
            {answer.notice}
          </Notice>
        ) : null}
        {answer?.error ? (
          <Notice tone="error" className="mb-4">
            {answer.error}
          </Notice>
        ) : null}
        <MyRegistrationsList registrations={loaderData.registrations} asking={loaderData.asking} />
      </div>
    </div>
  );
}
