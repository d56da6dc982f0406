import { CalendarCheck } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import {
  type AdminCompany,
  COMPANY_STATUSES,
  companyCreateSchema,
  companyUpdateSchema,
  MEMBERSHIP_TYPES,
} from "../../../core/members/members.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { parseOrThrow } from "../../../lib/validation";
import { AuditHistory } from "../../components/admin/audit-rows";
import {
  CompanyFacts,
  CompanyLogo,
  fieldErrorsFor,
  formatDay,
  InviteRepresentativeForm,
  type MembersActionData,
  ProfileFields,
  profileValues,
  RepresentativesList,
  STATUS_LABELS,
  TYPE_LABELS,
} from "../../components/members/company-parts";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { Notice } from "../../components/ui/notice";
import { optionsOf, SelectField } from "../../components/ui/select-field";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { shownAuditRows } from "../../lib/audit";
import { setFlash, takeFlash } from "../../lib/flash.server";
import { lengthLimit } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-member";
import { imageOf, refusal, representativeAction, textOf } from "./company-action.server";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.company?.name ?? "New company"} · Member companies · Manager` },
];

const NOT_FOUND = "This page could not be found";

async function loadCompany(context: Route.LoaderArgs["context"], id: string | undefined) {
  if (id === undefined) return null;
  const companyId = parseId(id);
  if (companyId === null) throw data(NOT_FOUND, { status: 404 });
  try {
    return await getRequestContext(context).services.members.get(companyId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data(NOT_FOUND, { status: 404 });
    throw error;
  }
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const company = await loadCompany(context, params.id);
  const representatives = company ? await services.members.representatives(company.id) : [];
  // Who changed this company, and what (decision 0074).
  const [history, site] = company
    ? await Promise.all([services.audit.history("company", company.id), services.settings.getAll()])
    : [[], null];
  const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
  return data(
    {
      company,
      representatives,
      countries: services.members.countryChoices(),
      notice: flash.message,
      history: site ? shownAuditRows(history, site["site.timezone"]) : [],
    },
    { headers: flash.headers },
  );
}

/** The form's fields, kept as typed when the service refuses them. */
const FIELDS = [
  "name",
  "country",
  "membership_type",
  "status",
  "member_since",
  "renews_on",
  "seats",
  "website",
  "products",
  "description",
];

/**
 * The company's forms, each with its `intent`: save (create or update), renew, delete, and the
 * representatives' invite, primary and remove. All work without JavaScript; a save redirects with a
 * flash notice, a refusal is the page's data with the field errors and what was typed.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const { services, auth, origin, sessionToken, secureCookies } = getRequestContext(context);
  const actor = auth?.user;
  // The admin layout's guard already stops everyone else; the check stays beside what it protects.
  if (!actor) throw data("Sign in first.", { status: 401 });
  if (actor.role.name !== "admin") throw data("This action is unauthorized.", { status: 403 });
  const company = await loadCompany(context, params.id);
  const form = await readForm(request);
  const intent = textOf(form, "intent");
  const flashed = (message: string, to: string) =>
    redirect(to, {
      headers: sessionToken ? { "Set-Cookie": setFlash(message, { token: sessionToken, secure: secureCookies }) } : {},
    });
  try {
    if (intent === "save") {
      const fields = Object.fromEntries(FIELDS.map((name) => [name, form[name]]));
      if (company) {
        const saved = await services.members.update(
          company.id,
          parseOrThrow(companyUpdateSchema, { ...fields, remove_logo: form.remove_logo }),
          await imageOf(form.logo),
        );
        return flashed(`Saved “${saved.name}”.`, `/manager/members/${saved.id}`);
      }
      const created = await services.members.create(
        parseOrThrow(companyCreateSchema, fields),
        await imageOf(form.logo),
      );
      return flashed(`Created “${created.name}”. Invite its representatives below.`, `/manager/members/${created.id}`);
    }
    if (!company) throw data("Save the company first.", { status: 400 });
    if (intent === "renew") {
      const renewed = await services.members.renew(company.id);
      return data<MembersActionData>({
        notice: `Renewed: ${renewed.name} now renews on ${renewed.renews_on ? formatDay(renewed.renews_on) : "—"}.`,
      });
    }
    if (intent === "delete") {
      await services.members.remove(company.id);
      return flashed(`Deleted “${company.name}”.`, "/manager/members");
    }
    const answer = await representativeAction(
      form,
      {
        invite: (input, invitation) => services.members.addRepresentative(company.id, input, invitation),
        change: (userId, primary) => services.members.changeRepresentative(company.id, userId, { primary }),
        remove: (userId) => services.members.removeRepresentative(company.id, userId),
      },
      { origin, inviter: actor },
    );
    if (answer) return answer;
    throw data("Unknown action.", { status: 400 });
  } catch (error) {
    return refusal(error, intent, form, FIELDS);
  }
}

function CompanyForm({
  company,
  countries,
  result,
}: {
  company: AdminCompany | null;
  countries: { code: string; name: string }[];
  result: MembersActionData | undefined;
}) {
  const refused = fieldErrorsFor(result, "save");
  const errors = refused?.errors ?? {};
  const values = refused?.values ?? {
    name: company?.name ?? "",
    country: company?.country ?? "",
    membership_type: company?.membership_type ?? "full",
    status: company?.status ?? "active",
    member_since: company?.member_since ?? "",
    renews_on: company?.renews_on ?? "",
    seats: company?.seats === null || company?.seats === undefined ? "" : String(company.seats),
    ...profileValues(company),
  };
  const saving = useNavigation().formData?.get("intent") === "save";
  return (
    <section aria-labelledby="details-title" className="mt-8">
      <h2 id="details-title" className="font-display text-2xl font-bold text-navy-900">
        {company ? "Details" : "The new company"}
      </h2>
      {refused ? (
        <Notice tone="error" className="mt-3">
          The company was not saved: please correct the fields marked below.
        </Notice>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-3 grid gap-5 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 sm:p-6"
      >
        <input type="hidden" name="intent" value="save" />
        <div className="sm:col-span-2">
          <TextField
            id="company-name"
            name="name"
            label="Name"
            defaultValue={values.name}
            error={errors.name}
            required
            {...lengthLimit(companyCreateSchema.shape.name)}
            hint={company ? `Its address stays /members-list/${company.slug} when the name changes.` : undefined}
          />
        </div>
        <SelectField
          id="company-country"
          name="country"
          label="Country"
          defaultValue={values.country}
          error={errors.country}
          required
          options={[["", "Choose a country"], ...countries.map((c) => [c.code, c.name] as const)]}
        />
        <SelectField
          id="company-type"
          name="membership_type"
          label="Membership type"
          defaultValue={values.membership_type}
          error={errors.membership_type}
          options={optionsOf(MEMBERSHIP_TYPES, TYPE_LABELS)}
        />
        <SelectField
          id="company-status"
          name="status"
          label="Status"
          defaultValue={values.status}
          error={errors.status}
          options={optionsOf(COMPANY_STATUSES, STATUS_LABELS)}
        />
        <TextField
          id="company-seats"
          name="seats"
          label="Seats"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          hint="How many representatives; empty for no limit."
          defaultValue={values.seats}
          error={errors.seats}
        />
        <TextField
          id="company-member-since"
          name="member_since"
          label="Member since"
          type="date"
          hint={company ? undefined : "Empty: today."}
          defaultValue={values.member_since}
          error={errors.member_since}
        />
        <TextField
          id="company-renews-on"
          name="renews_on"
          label="Renews on"
          type="date"
          hint="Empty: no renewal date (current while active)."
          defaultValue={values.renews_on}
          error={errors.renews_on}
        />
        <div className="grid gap-5 sm:col-span-2">
          <ProfileFields company={company} values={values} errors={errors} />
        </div>
        <div className="flex flex-wrap justify-end gap-3 sm:col-span-2">
          <Link to="/manager/members" className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : company ? "Save changes" : "Create company"}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** Issue 31: one company for the secretariat: its facts, Renewed, delete, details and representatives. */
export default function ManageMember({ loaderData, actionData }: Route.ComponentProps) {
  const { company, representatives, countries, notice } = loaderData;
  const result = actionData as MembersActionData | undefined;
  const shownNotice = result && "notice" in result ? result.notice : notice;
  return (
    <div className="max-w-5xl">
      <Breadcrumbs
        trail={[
          { label: "Manager", to: "/manager" },
          { label: "Member companies", to: "/manager/members" },
        ]}
        current={company ? company.name : "New company"}
      />
      <div className="mt-2 flex flex-wrap items-center gap-4">
        {company ? <CompanyLogo company={company} size="h-14 w-14" /> : null}
        <h1 className="min-w-0 flex-1 font-display text-3xl font-bold break-words text-navy-900 sm:text-4xl">
          {company ? company.name : "New company"}
        </h1>
        {company ? (
          <div className="flex w-full items-center gap-1 sm:w-auto">
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="renew" />
              <button type="submit" className="btn-outline">
                <CalendarCheck className="h-4 w-4" aria-hidden="true" />
                Renewed
              </button>
            </Form>
            <ConfirmDelete
              label={`Delete ${company.name}`}
              title="Delete this company?"
              description={
                company.seats_used > 0
                  ? `${company.name} still has representatives: it can be deleted only once they are removed. To keep its record, set its status to Left instead.`
                  : `${company.name} and its logo will be removed. This cannot be undone.`
              }
              fields={{ intent: "delete" }}
            />
          </div>
        ) : null}
      </div>
      {shownNotice ? (
        <Notice tone="success" className="mt-4">
          {shownNotice}
        </Notice>
      ) : null}
      {result && "error" in result ? (
        <Notice tone="error" className="mt-4">
          {result.error}
        </Notice>
      ) : null}
      {company ? (
        <div className="mt-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <CompanyFacts company={company} />
        </div>
      ) : null}
      {company ? (
        <section aria-labelledby="representatives-title" className="mt-8">
          <h2 id="representatives-title" className="font-display text-2xl font-bold text-navy-900">
            Representatives
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Primary contacts edit the company's profile and invite their colleagues. Removing someone keeps their
            account, without a company.
          </p>
          <RepresentativesList representatives={representatives} manage />
          <InviteRepresentativeForm
            result={result}
            seatsLeft={company.seats === null ? null : Math.max(0, company.seats - company.seats_used)}
          />
        </section>
      ) : null}
      <CompanyForm company={company} countries={countries} result={result} />
      {company ? <AuditHistory rows={loaderData.history} /> : null}
    </div>
  );
}
