import { ChevronDown, Crown, MailPlus, UserMinus } from "lucide-react";
import { Dialog } from "radix-ui";
import { forwardRef, useEffect, useRef, useState } from "react";
import { Form, type FormProps, useNavigation } from "react-router";
import {
  type AdminCompany,
  companyProfileSchema,
  type Representative,
  representativeInviteSchema,
} from "../../../core/members/members.schema";
import { MAX_PRODUCTS, PRODUCT_LENGTH } from "../../../core/members/members.values";
import { IMAGE_ACCEPT } from "../../../lib/uploads";
import { lengthLimit } from "../../lib/forms";
import { InviteFields } from "../account/invite-fields";
import { RowActionForm } from "../admin/admin-list";
import { DeleteDialogContent } from "../ui/confirm-delete";
import { Notice } from "../ui/notice";
import { RichTextEditor } from "../ui/rich-text-editor";
import { TextField } from "../ui/text-field";

/**
 * The membership screens' shared parts (issue 31): the secretariat's company screen and a primary
 * contact's /dashboard/company show the same facts, the same profile fields and the same
 * representatives list with the same row actions (intents `invite`, `primary`, `remove-representative`).
 */

const DAY = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** A YYYY-MM-DD day as "12 Mar 2027". */
export const formatDay = (day: string) => DAY.format(new Date(`${day}T00:00:00Z`));

export const TYPE_LABELS = { full: "Full member", associate: "Associate member" } as const;
export const STATUS_LABELS = { active: "Active", suspended: "Suspended", left: "Left" } as const;

/** What a page action answers: a notice, a refusal of a row action, or a form's field errors with what was typed. */
export type MembersActionData =
  | { notice: string; intent?: string }
  | { error: string }
  | { intent: string; errors: Record<string, string>; values: Record<string, string> };

export const fieldErrorsFor = (result: MembersActionData | undefined, intent: string) =>
  result && "errors" in result && result.intent === intent ? result : null;

/** The company's standing in one badge: its status, and for an active one whether it is current. */
export function CompanyStatusBadge({ company }: { company: Pick<AdminCompany, "status" | "current"> }) {
  const [label, look] =
    company.status === "left"
      ? ["Left", "bg-slate-200 text-slate-700"]
      : company.status === "suspended"
        ? ["Suspended", "bg-red-100 text-red-800"]
        : company.current
          ? ["Current", "bg-sea-100 text-navy-900"]
          : ["Lapsed", "bg-amber-100 text-amber-900"];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${look}`}>{label}</span>;
}

export const seatsText = (company: Pick<AdminCompany, "seats" | "seats_used">) =>
  company.seats === null ? `${company.seats_used} (no limit)` : `${company.seats_used} of ${company.seats}`;

/** The logo as the directory shows it (alt text: the company's name, decision 0044), or its initials. */
export function CompanyLogo({
  company,
  size = "h-12 w-12",
}: {
  company: Pick<AdminCompany, "name" | "logo" | "logo_width" | "logo_height">;
  size?: string;
}) {
  if (company.logo) {
    return (
      <img
        src={company.logo}
        alt={company.name}
        width={company.logo_width ?? 96}
        height={company.logo_height ?? 96}
        className={`${size} shrink-0 rounded-md bg-white object-contain ring-1 ring-slate-200`}
      />
    );
  }
  const initials = company.name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0] ?? "")
    .join("")
    .toUpperCase();
  return (
    <span
      aria-hidden="true"
      className={`${size} flex shrink-0 items-center justify-center rounded-md bg-navy-100 font-display text-sm font-bold text-navy-900`}
    >
      {initials}
    </span>
  );
}

/** Status, renewal, seats and the rest, as a definition list. */
export function CompanyFacts({ company }: { company: AdminCompany }) {
  const facts: [string, React.ReactNode][] = [
    ["Status", <CompanyStatusBadge key="status" company={company} />],
    ["Renews on", company.renews_on ? formatDay(company.renews_on) : "No renewal date"],
    ["Seats used", seatsText(company)],
    ["Membership", TYPE_LABELS[company.membership_type]],
    ["Member since", formatDay(company.member_since)],
    ["Country", company.country_name],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-6">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
          <dd className="mt-0.5 text-sm text-navy-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The public profile's fields: website, products, logo and description. The secretariat's form
 * has them beside the rest; a primary contact's has them alone.
 */
export function ProfileFields({
  company,
  values,
  errors,
}: {
  company: Pick<AdminCompany, "name" | "logo" | "logo_width" | "logo_height"> | null;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  return (
    <>
      <TextField
        id="company-website"
        name="website"
        label="Website"
        type="url"
        inputMode="url"
        placeholder="https://"
        defaultValue={values.website}
        error={errors.website}
        {...lengthLimit(companyProfileSchema.shape.website)}
      />
      <TextField
        id="company-products"
        name="products"
        label="Products"
        hint={`Short tags separated by commas, such as Radar, ECDIS, AIS (at most ${MAX_PRODUCTS}, each up to ${PRODUCT_LENGTH} characters).`}
        defaultValue={values.products}
        error={errors.products}
      />
      <div>
        <label htmlFor="company-logo" className="field-label">
          Logo
        </label>
        {company?.logo ? (
          <div className="mb-3 flex items-center gap-4">
            <img
              src={company.logo}
              alt={`Current logo of ${company.name}`}
              width={company.logo_width ?? 96}
              height={company.logo_height ?? 96}
              className="h-16 w-auto max-w-40 rounded-md bg-white object-contain ring-1 ring-slate-200"
            />
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="remove_logo" value="1" className="h-4 w-4" />
              Remove the logo
            </label>
          </div>
        ) : null}
        <input
          id="company-logo"
          name="logo"
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={errors.logo ? true : undefined}
          aria-describedby={errors.logo ? "company-logo-error" : "company-logo-hint"}
          className="block max-w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-white"
        />
        <p id="company-logo-hint" className="mt-1 text-xs text-slate-500">
          JPEG, PNG or WebP; its alt text is the company's name.
          {company?.logo ? " A new file replaces the current logo." : ""}
        </p>
        {errors.logo ? (
          <p id="company-logo-error" className="mt-1.5 text-sm text-red-700">
            {errors.logo}
          </p>
        ) : null}
      </div>
      <RichTextEditor
        name="description"
        label="Description"
        initialHtml={values.description ?? ""}
        error={errors.description}
        compact
      />
    </>
  );
}

/** The profile's values as the form shows them. */
export function profileValues(company: AdminCompany | null): Record<string, string> {
  return {
    website: company?.website ?? "",
    products: company?.products.join(", ") ?? "",
    description: company?.description ?? "",
  };
}

/** One button posting an intent for one representative. */
function RepresentativeAction({
  representative,
  intent,
  fields = {},
  children,
}: {
  representative: Representative;
  intent: string;
  fields?: Record<string, string>;
  children: React.ReactNode;
}) {
  return <RowActionForm fields={{ intent, user_id: representative.user_id, ...fields }}>{children}</RowActionForm>;
}

const personName = (r: Pick<Representative, "first_name" | "last_name" | "email">) =>
  `${r.first_name} ${r.last_name}`.trim() || r.email;

/** A page navigation's form, not a fetcher's: the page's action answers with its notice, and the page keeps its scroll. */
const StayingForm = forwardRef<HTMLFormElement, FormProps>(function StayingForm(props, ref) {
  return <Form ref={ref} preventScrollReset {...props} />;
});

/**
 * Removing a representative, or leaving the company, asked first. With JavaScript the button opens
 * the confirmation dialog, whose button posts the same fields as a page navigation (so that the
 * page says what happened); without it, the button posts its form at once.
 */
function RemoveRepresentative({
  representative,
  isMe,
  children,
}: {
  representative: Representative;
  isMe: boolean;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const confirmed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const fields = { intent: "remove-representative", user_id: representative.user_id };
  const name = personName(representative);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Form
        method="post"
        preventScrollReset
        onSubmit={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {Object.entries(fields).map(([field, value]) => (
          <input key={field} type="hidden" name={field} value={value} />
        ))}
        <button ref={button} type="submit" className="btn-outline py-1.5 text-sm text-red-700">
          {children}
        </button>
      </Form>
      <DeleteDialogContent
        title={isMe ? "Leave the company?" : `Remove ${name}?`}
        description={
          isMe
            ? "You will no longer represent the company; your account stays."
            : `${name} will no longer represent the company; their account stays.`
        }
        error={null}
        fields={fields}
        busy={false}
        Form={StayingForm}
        confirm={isMe ? { label: "Leave", busy: "Leaving…" } : { label: "Remove", busy: "Removing…" }}
        onSubmit={() => {
          confirmed.current = true;
          setOpen(false);
        }}
        onCloseAutoFocus={(event) => {
          // The button is no Dialog.Trigger, so Radix would not know where to return focus.
          event.preventDefault();
          if (!confirmed.current) {
            button.current?.focus();
            return;
          }
          // The row (and its button) goes once the action answers: focus goes to the page's heading.
          confirmed.current = false;
          const heading = document.querySelector<HTMLElement>("main h1");
          if (!heading) return;
          heading.tabIndex = -1;
          heading.focus();
        }}
      />
    </Dialog.Root>
  );
}

const REP_STATUS = {
  active: null,
  invited: ["Invited", "bg-amber-100 text-amber-900"],
  deactivated: ["Deactivated", "bg-slate-200 text-slate-700"],
} as const;

/**
 * The company's representatives. With `manage`, each row can be made or unmade a primary contact
 * and removed (the account stays, without a company); `me` marks the viewer's own row.
 */
export function RepresentativesList({
  representatives,
  manage,
  me,
}: {
  representatives: Representative[];
  manage: boolean;
  me?: number;
}) {
  if (representatives.length === 0) {
    return <p className="mt-3 rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">No representatives yet.</p>;
  }
  return (
    <ul className="mt-3 divide-y divide-slate-100 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {representatives.map((r) => {
        const name = personName(r);
        const isMe = r.user_id === me;
        const forName = <span className="sr-only"> {isMe ? "(you)" : name}</span>;
        const badge = REP_STATUS[r.status];
        return (
          <li key={r.user_id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-navy-900">{name}</span>
                {isMe ? <span className="text-sm text-slate-500">(you)</span> : null}
                {r.primary ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-navy-900 px-2 py-0.5 text-xs font-semibold text-white">
                    <Crown className="h-3.5 w-3.5" aria-hidden="true" />
                    Primary contact
                  </span>
                ) : null}
                {badge ? (
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${badge[1]}`}>{badge[0]}</span>
                ) : null}
              </p>
              <p className="mt-0.5 text-sm break-words text-slate-700">
                <a href={`mailto:${r.email}`}>{r.email}</a>
              </p>
            </div>
            {manage ? (
              <div className="flex flex-wrap items-center gap-1">
                <RepresentativeAction representative={r} intent="primary" fields={{ primary: r.primary ? "0" : "1" }}>
                  {r.primary ? (isMe ? "Step down as primary contact" : "Remove primary role") : "Make primary contact"}
                  {isMe ? null : forName}
                </RepresentativeAction>
                <RemoveRepresentative representative={r} isMe={isMe}>
                  <UserMinus className="h-4 w-4" aria-hidden="true" />
                  {isMe ? "Leave the company" : "Remove"}
                  {isMe ? null : forName}
                </RemoveRepresentative>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Invite a representative (name and e-mail): an account with this e-mail is linked instead. A
 * refusal for lack of seats ("This company has no free seat.") is said above the fields.
 */
export function InviteRepresentativeForm({
  result,
  seatsLeft,
}: {
  result: MembersActionData | undefined;
  /** Free seats; null: no limit. */
  seatsLeft: number | null;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  const refused = fieldErrorsFor(result, "invite");
  const errors = refused?.errors ?? {};
  const values = refused?.values ?? {};
  const sent = result && "notice" in result && result.intent === "invite";
  useEffect(() => {
    if (sent) formRef.current?.reset();
  }, [sent]);
  useEffect(() => {
    if (refused) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [refused]);
  const other = Object.entries(errors).filter(([field]) => !["first_name", "last_name", "email"].includes(field));
  return (
    <details open={refused !== null} className="group mt-4">
      <summary className="btn-primary w-full cursor-pointer list-none sm:w-auto [&::-webkit-details-marker]:hidden">
        <MailPlus className="h-4 w-4" aria-hidden="true" />
        Invite a representative
        <ChevronDown className="h-4 w-4 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <div className="mt-3 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <p className="text-sm text-slate-600">
          They receive an e-mail with a link to choose their password; someone who already has an account is added and
          told by e-mail.{" "}
          {seatsLeft === null
            ? "This company has no seat limit."
            : `${seatsLeft} free seat${seatsLeft === 1 ? "" : "s"} left.`}
        </p>
        {other.map(([field, message]) => (
          <Notice key={field} tone="error" className="mt-3">
            {message}
          </Notice>
        ))}
        <Form
          ref={formRef}
          method="post"
          noValidate
          preventScrollReset
          className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-[1fr_1fr_1.4fr_auto] xl:items-start"
        >
          <input type="hidden" name="intent" value="invite" />
          <InviteFields schema={representativeInviteSchema} values={values} errors={errors} />
          <button type="submit" className="btn-primary sm:col-span-2 xl:col-span-1 xl:mt-7" disabled={sending}>
            <MailPlus className="h-4 w-4" aria-hidden="true" />
            {sending ? "Sending…" : "Send invitation"}
          </button>
        </Form>
      </div>
    </details>
  );
}
