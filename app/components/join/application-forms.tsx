import { CheckCircle2, Search, XCircle } from "lucide-react";
import { Form, useNavigation } from "react-router";
import {
  type ApplicationStatus,
  applicationApproveSchema,
  type JoinRequest,
  REASON_MAX,
} from "../../../core/join/join.schema";
import { lengthLimit } from "../../lib/forms";
import { SelectField } from "../ui/select-field";
import { TextAreaField } from "../ui/text-area-field";
import { TextField } from "../ui/text-field";

/** What the page's action answers for an approval or a decline it refused: the fields' messages and what was sent. */
export type ApplicationRefusal = {
  intent: "approve" | "decline";
  id: number;
  errors: Record<string, string>;
  values: Record<string, string>;
};

export const STATUS_LABEL: Record<ApplicationStatus, string> = {
  new: "New application",
  approved: "Approved",
  declined: "Declined",
};

const STATUS_TONE: Record<ApplicationStatus, string> = {
  new: "bg-amber-100 text-amber-900",
  approved: "bg-sea-100 text-sea-700",
  declined: "bg-slate-200 text-slate-800",
};

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONE[status]}`}>
      {STATUS_LABEL[status]}
    </span>
  );
}

/** "Ada Lovelace" → Ada / Lovelace, as the service reads a request's name (applications.service.ts). */
function splitName(name: string) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { first: words[0] ?? "", last: "" };
  return { first: words.slice(0, -1).join(" "), last: words[words.length - 1] };
}

const shape = applicationApproveSchema.shape;

/**
 * Approve (decision 0047): one form, prefilled from the request; the admin adds the country and the
 * type, or picks an existing company to link the applicant to. A plain form: works without JavaScript.
 */
export function ApproveForm({
  row,
  countries,
  companies,
  companySearch,
  refusal,
  searchAction,
}: {
  row: JoinRequest;
  countries: { code: string; name: string }[];
  companies: { id: number; name: string; country_name: string }[];
  companySearch: string;
  refusal: ApplicationRefusal | null;
  /** The page's address with the list's filters, for the company search (a GET form). */
  searchAction: { path: string; params: [string, string][] };
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "approve";
  const values = refusal?.values ?? {};
  const errors = refusal?.errors ?? {};
  const name = splitName(row.representative_name);
  const prefix = `approve-${row.id}`;
  const value = (field: string, fallback: string) => values[field] ?? fallback;
  return (
    <section aria-labelledby={`${prefix}-heading`} className="mt-4 rounded-lg border border-sea-100 bg-navy-50 p-4">
      <h3 id={`${prefix}-heading`} className="font-display text-lg font-bold text-navy-900">
        Approve the application of {row.company_name}
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        This creates the member company and invites {row.representative_name} as its primary contact (an address that
        already has an account is linked instead). They are e-mailed at once.
      </p>
      <form method="get" action={searchAction.path} className="mt-3 flex flex-wrap items-end gap-2">
        {searchAction.params.map(([key, v]) => (
          <input key={key} type="hidden" name={key} value={v} />
        ))}
        <input type="hidden" name="approve" value={row.id} />
        <div className="min-w-0 flex-1">
          <TextField
            id={`${prefix}-company-search`}
            name="company_search"
            type="search"
            label="Find an existing company to link to"
            defaultValue={companySearch}
          />
        </div>
        <button type="submit" className="btn-outline">
          <Search className="h-4 w-4" aria-hidden="true" />
          Find
        </button>
      </form>
      <Form method="post" className="mt-4 grid gap-4 md:grid-cols-2" preventScrollReset>
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="id" value={row.id} />
        <div className="md:col-span-2">
          <SelectField
            id={`${prefix}-company`}
            name="company_id"
            label="Company"
            defaultValue={value("company_id", "")}
            error={errors.company_id}
            options={[
              ["", "Create a new company"],
              ...companies.map((c) => [c.id, `Link to ${c.name} (${c.country_name})`] as const),
            ]}
          />
          <p className="mt-1.5 text-sm text-slate-600">
            {companies.length === 0
              ? `No existing company matches “${companySearch}”.`
              : `${companies.length} existing compan${companies.length === 1 ? "y matches" : "ies match"} “${companySearch}”.`}{" "}
            When linking, the country and type below are the company's own and are not used.
          </p>
        </div>
        <TextField
          id={`${prefix}-name`}
          name="company_name"
          label="Company name"
          defaultValue={value("company_name", row.company_name ?? "")}
          error={errors.company_name}
          {...lengthLimit(shape.company_name)}
        />
        <SelectField
          id={`${prefix}-country`}
          name="country"
          label="Country"
          defaultValue={value("country", "")}
          error={errors.country}
          options={[["", "Choose a country"], ...countries.map((c) => [c.code, c.name] as const)]}
        />
        <SelectField
          id={`${prefix}-type`}
          name="membership_type"
          label="Membership type"
          defaultValue={value("membership_type", "")}
          error={errors.membership_type}
          options={[
            ["", "Choose the type"],
            ["full", "Full member"],
            ["associate", "Associate member"],
          ]}
        />
        <TextField
          id={`${prefix}-email`}
          name="email"
          type="email"
          label="Representative's e-mail"
          defaultValue={value("email", row.email)}
          error={errors.email}
          {...lengthLimit(shape.email)}
        />
        <TextField
          id={`${prefix}-first-name`}
          name="first_name"
          label="Representative's first name"
          defaultValue={value("first_name", name.first)}
          error={errors.first_name}
          {...lengthLimit(shape.first_name)}
        />
        <TextField
          id={`${prefix}-last-name`}
          name="last_name"
          label="Representative's last name"
          defaultValue={value("last_name", name.last)}
          error={errors.last_name}
          {...lengthLimit(shape.last_name)}
        />
        <TextField
          id={`${prefix}-phone`}
          label="Phone (from the request)"
          defaultValue={row.phone_number ?? ""}
          readOnly
          hint="For reaching them; it is not stored with the account."
        />
        <label className="flex items-start gap-2 self-end text-sm text-slate-800">
          <input
            type="checkbox"
            name="primary"
            value="1"
            defaultChecked={values.primary === "1"}
            className="mt-0.5 h-4 w-4"
          />
          <span>When linking to an existing company, make them a primary contact too (a new company's always is).</span>
        </label>
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
            {busy ? "Approving…" : "Approve and invite"}
          </button>
          <a href={`${searchAction.path}${query(searchAction.params)}#request-${row.id}`} className="btn-ghost">
            Cancel
          </a>
        </div>
      </Form>
    </section>
  );
}

/** Decline with a reason, which is e-mailed to the applicant. */
export function DeclineForm({
  row,
  refusal,
  back,
}: {
  row: JoinRequest;
  refusal: ApplicationRefusal | null;
  back: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "decline";
  const prefix = `decline-${row.id}`;
  return (
    <section aria-labelledby={`${prefix}-heading`} className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id={`${prefix}-heading`} className="font-display text-lg font-bold text-navy-900">
        Decline the application of {row.company_name}
      </h3>
      <Form method="post" className="mt-3 space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="decline" />
        <input type="hidden" name="id" value={row.id} />
        <TextAreaField
          id={`${prefix}-reason`}
          name="reason"
          label={`Reason (e-mailed to ${row.email})`}
          defaultValue={refusal?.values.reason ?? ""}
          error={refusal?.errors.reason}
          maxLength={REASON_MAX}
        />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            <XCircle className="h-4 w-4" aria-hidden="true" />
            {busy ? "Declining…" : "Decline and e-mail the reason"}
          </button>
          <a href={back} className="btn-ghost">
            Cancel
          </a>
        </div>
      </Form>
    </section>
  );
}

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** What each history row says (a registration's states: decision 0052). */
const EVENT_LABELS: Record<JoinRequest["history"][number]["event"], string> = {
  approved: "Approved",
  declined: "Declined",
  registration_pending: "Registered (pending)",
  registration_confirmed: "Confirmed",
  registration_waitlisted: "Put on the waiting list",
  registration_declined: "Declined",
  registration_cancelled: "Cancelled",
  registration_attended: "Checked in",
  registration_not_attended: "Check-in undone",
};

/** Received, then approved or declined by whom and when (the mails follow in the row). */
export function History({ row }: { row: JoinRequest }) {
  return (
    <div className="mt-3 border-t border-slate-100 pt-3">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">History</h3>
      <ol className="mt-1 space-y-1 text-xs text-slate-700">
        <li>
          Received {WHEN.format(new Date(row.created_at))} UTC
          {row.page_path ? ` from ${row.page_path}` : " through the API"}
        </li>
        {row.history.map((event) => (
          <li key={event.id}>
            {EVENT_LABELS[event.event]} by {event.by} on {WHEN.format(new Date(event.at))} UTC
            {event.company_name ? `: representative of ${event.company_name}` : ""}
            {event.reason ? (
              <>
                {". Reason: "}
                <span className="whitespace-pre-line">{event.reason}</span>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function query(params: [string, string][]): string {
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : "";
}
