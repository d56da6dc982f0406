import { ArrowRight, ExternalLink } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { companyProfileSchema, type OwnCompany } from "../../../core/members/members.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import {
  CompanyFacts,
  CompanyLogo,
  fieldErrorsFor,
  InviteRepresentativeForm,
  type MembersActionData,
  ProfileFields,
  profileValues,
  RepresentativesList,
} from "../../components/members/company-parts";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/company";
import { imageOf, refusal, representativeAction, textOf } from "./company-action.server";

export const meta: Route.MetaFunction = () => [{ title: "Your company · Members area" }];

/**
 * Personal (it names the member's company and colleagues): no `handle`, so never one of the
 * shared renders of decision 0032.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  try {
    return { company: await services.members.ownCompany(auth.user.id), me: auth.user.id };
  } catch (error) {
    // Individual and honorary members, and admins, represent no company.
    if (isAppError(error) && error.code === "not_found") return { company: null, me: auth.user.id };
    throw error;
  }
}

const PROFILE_FIELDS = ["website", "products", "description"];

/**
 * A primary contact's forms: the public profile (`profile`) and the colleagues (invite, primary,
 * remove). The service refuses everyone else (403) and another company's people (404).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, auth, origin } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const userId = auth.user.id;
  const form = await readForm(request);
  const intent = textOf(form, "intent");
  try {
    if (intent === "profile") {
      const fields = Object.fromEntries(PROFILE_FIELDS.map((name) => [name, form[name]]));
      await services.members.updateOwnProfile(
        userId,
        parseOrThrow(companyProfileSchema, { ...fields, remove_logo: form.remove_logo }),
        await imageOf(form.logo),
      );
      // The directory shows the profile: its cached pages move on, as after the API's change (decision 0044).
      await services.contentVersion.changed();
      return data<MembersActionData>({ intent, notice: "The company's profile is saved." });
    }
    // The secretariat's list counts the seats taken: a change to the colleagues moves its cached answers on.
    const published = async <T,>(change: Promise<T>): Promise<T> => {
      const done = await change;
      await services.contentVersion.changed();
      return done;
    };
    const answer = await representativeAction(
      form,
      {
        invite: (input, invitation) => published(services.members.inviteColleague(userId, input, invitation)),
        change: (colleagueId, primary) => published(services.members.changeColleague(userId, colleagueId, { primary })),
        remove: (colleagueId) => published(services.members.removeColleague(userId, colleagueId)),
      },
      { origin, inviter: auth.user },
    );
    if (answer) return answer;
    throw data("Unknown action.", { status: 400 });
  } catch (error) {
    return refusal(error, intent, form, PROFILE_FIELDS);
  }
}

function ProfileForm({ company, result }: { company: OwnCompany; result: MembersActionData | undefined }) {
  const refused = fieldErrorsFor(result, "profile");
  const errors = refused?.errors ?? {};
  const values = refused?.values ?? profileValues(company);
  const saving = useNavigation().formData?.get("intent") === "profile";
  return (
    <section aria-labelledby="profile-title" className="mt-10">
      <h2 id="profile-title" className="font-display text-2xl font-bold text-navy-900">
        Public profile
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        What visitors see in the members' directory. The name, type, status and dates are kept by the secretariat.
      </p>
      {refused ? (
        <Notice tone="error" className="mt-3">
          The profile was not saved: please correct the fields marked below.
        </Notice>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        preventScrollReset
        className="mt-3 grid gap-5 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <input type="hidden" name="intent" value="profile" />
        <ProfileFields company={company} values={values} errors={errors} />
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : "Save the profile"}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** What a representative who is not a primary contact reads of the profile. */
function ProfileView({ company }: { company: OwnCompany }) {
  return (
    <section aria-labelledby="profile-title" className="mt-10">
      <h2 id="profile-title" className="font-display text-2xl font-bold text-navy-900">
        Public profile
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Your company's primary contacts can change it; the name, type, status and dates are kept by the secretariat.
      </p>
      <div className="mt-3 space-y-3 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        {company.website ? (
          <p>
            <a
              href={company.website}
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-sea-600 hover:underline"
            >
              {company.website}
              <ExternalLink className="h-4 w-4" aria-hidden="true" />
            </a>
          </p>
        ) : null}
        {company.products.length > 0 ? (
          <ul aria-label="Products" className="flex flex-wrap gap-2">
            {company.products.map((p) => (
              <li key={p} className="rounded-full bg-navy-50 px-2.5 py-0.5 text-sm text-navy-900">
                {p}
              </li>
            ))}
          </ul>
        ) : null}
        {company.description ? (
          <div
            className="rich-text"
            // Sanitized on write and again on read by the members service.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
            dangerouslySetInnerHTML={{ __html: company.description }}
          />
        ) : (
          <p className="text-slate-600">No description yet.</p>
        )}
      </div>
    </section>
  );
}

/** Issue 31 'Primary contacts': the member's company, its standing and its people. */
export default function Company({ loaderData, actionData }: Route.ComponentProps) {
  const { company, me } = loaderData;
  const result = actionData as MembersActionData | undefined;
  if (!company) {
    return (
      <div>
        <p className="text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
        <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Your company</h1>
        <p className="mt-4 max-w-2xl rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">
          Your account does not represent a member company. If your company is a member, ask its primary contact or the
          secretariat to add you.
        </p>
      </div>
    );
  }
  return (
    <div>
      <p className="text-sm font-semibold tracking-wide text-sea-600 uppercase">Your company</p>
      <div className="mt-2 flex items-center gap-4">
        <CompanyLogo company={company} size="h-14 w-14" />
        <h1 className="min-w-0 font-display text-3xl font-bold break-words text-navy-900 sm:text-4xl">
          {company.name}
        </h1>
      </div>
      {result && "notice" in result ? (
        <Notice tone="success" className="mt-4">
          {result.notice}
        </Notice>
      ) : null}
      {result && "error" in result ? (
        <Notice tone="error" className="mt-4">
          {result.error}
        </Notice>
      ) : null}
      <div className="mt-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <CompanyFacts company={company} />
      </div>
      {/* Only a current company is in the directory: a lapsed one's page is a 404. */}
      {company.current ? (
        <p className="mt-3">
          <Link
            to={`/members-list/${company.slug}`}
            className="inline-flex items-center gap-1 font-semibold text-sea-600 hover:underline"
          >
            See your company's public page
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </p>
      ) : null}
      <section aria-labelledby="colleagues-title" className="mt-10">
        <h2 id="colleagues-title" className="font-display text-2xl font-bold text-navy-900">
          Representatives
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {company.primary
            ? "As a primary contact you invite colleagues within your seats, remove them and hand over the primary role."
            : "Your company's primary contacts invite and remove colleagues."}
        </p>
        <RepresentativesList representatives={company.representatives} manage={company.primary} me={me} />
        {company.primary ? (
          <InviteRepresentativeForm
            result={result}
            seatsLeft={company.seats === null ? null : Math.max(0, company.seats - company.seats_used)}
          />
        ) : null}
      </section>
      {company.primary ? <ProfileForm company={company} result={result} /> : <ProfileView company={company} />}
    </div>
  );
}
