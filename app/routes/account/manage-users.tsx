import { ChevronDown, MailPlus, RotateCcw, ShieldCheck, ShieldOff, UserRoundCheck, UserRoundX } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import {
  type AdminUser,
  inviteSchema,
  type RoleName,
  userChangeSchema,
  userListSchema,
} from "../../../core/accounts/accounts.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { InviteFields } from "../../components/account/invite-fields";
import { Avatar } from "../../components/account/user-menu";
import {
  AdminList,
  type FilterSelects,
  filterParams,
  RowActionForm,
  resultNotices,
} from "../../components/admin/admin-list";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { SelectField } from "../../components/ui/select-field";
import { getRequestContext } from "../../context";
import { firstMessages, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-users";

export const meta: Route.MetaFunction = () => [{ title: "Users · Manager" }];

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  const page = await services.accounts.list(userListSchema.parse(Object.fromEntries(url.searchParams)));
  return { ...page, me: auth?.user.id ?? 0 };
}

type ActionData =
  | { notice: string }
  | { error: string }
  | { errors: Record<string, string>; values: Record<string, string> };

/** Invite, change role, deactivate or reactivate, resend, delete: each one form, so all work without JavaScript. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, auth, origin } = getRequestContext(context);
  const form = await readForm(request);
  const actor = auth?.user;
  // The admin layout's guard already stops everyone else; the check stays beside what it protects.
  if (!actor) throw data("Sign in first.", { status: 401 });
  if (actor.role.name !== "admin") throw data("This action is unauthorized.", { status: 403 });
  const invitation = { origin, inviter: actor };
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  try {
    if (form.intent === "invite") {
      const user = await services.invitations.invite(parseOrThrow(inviteSchema, form), invitation);
      return data<ActionData>({ notice: `Invitation sent to ${user.email}.` });
    }
    const id = formId(form);
    switch (form.intent) {
      case "role": {
        const user = await services.accounts.change(actor.id, id, parseOrThrow(userChangeSchema, { role: form.role }));
        return data<ActionData>({
          notice: `${nameOf(user)} is now ${ROLE_NOUNS[user.role.name]}.`,
        });
      }
      case "deactivate":
      case "reactivate": {
        const user = await services.accounts.change(actor.id, id, { is_active: form.intent === "reactivate" });
        return data<ActionData>({
          notice: `${nameOf(user)} is ${user.status === "deactivated" ? "deactivated and signed out" : "active again"}.`,
        });
      }
      case "reset-two-factor": {
        // A lost phone (decision 0075): audited, and the user is told by mail.
        await services.twoFactor.reset(id);
        return data<ActionData>({
          notice: "Two-factor sign-in is reset: the user signs in with the password and may set it up again.",
        });
      }
      case "resend": {
        const user = await services.invitations.resend(id, invitation);
        return data<ActionData>({ notice: `A new invitation was sent to ${user.email}.` });
      }
      case "delete":
        await services.accounts.remove(actor.id, id);
        return data<ActionData>({ notice: "The user is deleted." });
      default:
        throw data("Unknown action.", { status: 400 });
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (form.intent === "invite" && error.details.errors) {
      const values = { first_name: text("first_name"), last_name: text("last_name"), email: text("email") };
      return data<ActionData>(
        { errors: firstMessages(error.details.errors), values: { ...values, role: text("role") } },
        { status: error.status },
      );
    }
    return data<ActionData>({ error: error.message }, { status: error.status });
  }
}

const nameOf = (user: Pick<AdminUser, "first_name" | "last_name" | "email">) =>
  `${user.first_name} ${user.last_name}`.trim() || user.email;

const DAY = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

function StatusBadge({ user }: { user: AdminUser }) {
  if (user.status === "deactivated") {
    return (
      <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700">Deactivated</span>
    );
  }
  if (user.status === "invited") {
    return <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Invited</span>;
  }
  return <span className="rounded-full bg-sea-100 px-2 py-0.5 text-xs font-semibold text-navy-900">Active</span>;
}

/** One button posting an intent for one user. */
function RowAction({
  user,
  intent,
  fields = {},
  children,
}: {
  user: AdminUser;
  intent: string;
  fields?: Record<string, string>;
  children: React.ReactNode;
}) {
  return <RowActionForm fields={{ intent, id: user.id, ...fields }}>{children}</RowActionForm>;
}

function InviteForm({ result }: { result: ActionData | undefined }) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  const errors = result && "errors" in result ? result.errors : {};
  const values = result && "values" in result ? result.values : {};
  const sent = result && "notice" in result && result.notice.startsWith("Invitation sent");
  useEffect(() => {
    if (sent) formRef.current?.reset();
  }, [sent]);
  // After a refusal, the first field to fix gets the focus (its message is read with it).
  useEffect(() => {
    if (result && "errors" in result) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [result]);
  // Closed until wanted, so the list comes first on a phone; open again when the server refused the input.
  return (
    <details open={Object.keys(errors).length > 0} className="group mt-6">
      <summary className="btn-primary w-full cursor-pointer list-none sm:w-auto [&::-webkit-details-marker]:hidden">
        <MailPlus className="h-4 w-4" aria-hidden="true" />
        Invite a user
        <ChevronDown className="h-4 w-4 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <section
        aria-labelledby="invite-heading"
        className="mt-3 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="invite-heading" className="flex items-center gap-2 font-display text-xl font-bold text-navy-900">
          <MailPlus className="h-5 w-5 text-sea-600" aria-hidden="true" />
          Invite a user
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          They receive an e-mail with a link to choose their password. The link works once, for 7 days.
        </p>
        <Form
          ref={formRef}
          method="post"
          noValidate
          preventScrollReset
          className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-[1fr_1fr_1.4fr_10rem_auto] xl:items-start"
        >
          <input type="hidden" name="intent" value="invite" />
          <InviteFields schema={inviteSchema} values={values} errors={errors} />
          <SelectField
            id="invite-role"
            name="role"
            label="Role"
            defaultValue={values.role || "member"}
            error={errors.role}
            options={[
              ["member", "Member"],
              ["editor", "Editor"],
              ["admin", "Admin"],
            ]}
          />
          <button type="submit" className="btn-primary sm:col-span-2 xl:col-span-1 xl:mt-7" disabled={sending}>
            <MailPlus className="h-4 w-4" aria-hidden="true" />
            {sending ? "Sending…" : "Send invitation"}
          </button>
        </Form>
      </section>
    </details>
  );
}

function UserRow({ user, isMe }: { user: AdminUser; isMe: boolean }) {
  const name = nameOf(user);
  const forName = <span className="sr-only"> for {name}</span>;
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <Avatar user={user} />
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-navy-900">{name}</span>
              {isMe ? <span className="text-sm text-slate-500">(you)</span> : null}
              <span
                className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${user.role.name === "admin" ? "bg-navy-900 text-white" : "bg-navy-50 text-navy-900"}`}
              >
                {user.role.name === "admin" ? <ShieldCheck className="h-3.5 w-3.5" aria-hidden="true" /> : null}
                {roleLabel(user.role.name)}
              </span>
              <StatusBadge user={user} />
            </p>
            <p className="mt-1 break-words text-sm text-slate-700">
              <a href={`mailto:${user.email}`}>{user.email}</a>
            </p>
            <p className="mt-1 text-xs text-slate-500">
              {user.status === "invited"
                ? user.invitation_expires_at
                  ? `Invitation link valid until ${DAY.format(new Date(user.invitation_expires_at))}`
                  : "The invitation link has expired: send a new one"
                : `Since ${DAY.format(new Date(user.created_at))}`}
            </p>
          </div>
        </div>
        {isMe ? null : (
          <div className="flex flex-wrap items-center gap-1">
            {user.status === "invited" ? (
              <RowAction user={user} intent="resend">
                <RotateCcw className="h-4 w-4" aria-hidden="true" />
                Resend invitation{forName}
              </RowAction>
            ) : null}
            {ROLE_LABELS.filter(([role]) => role !== user.role.name).map(([role, label]) => (
              <RowAction key={role} user={user} intent="role" fields={{ role }}>
                Make {label.toLowerCase()}
                {forName}
              </RowAction>
            ))}
            {user.two_factor ? (
              <RowAction user={user} intent="reset-two-factor">
                <ShieldOff className="h-4 w-4" aria-hidden="true" />
                Reset two-factor{forName}
              </RowAction>
            ) : null}
            {user.status === "deactivated" ? (
              <RowAction user={user} intent="reactivate">
                <UserRoundCheck className="h-4 w-4" aria-hidden="true" />
                Reactivate{forName}
              </RowAction>
            ) : (
              <RowAction user={user} intent="deactivate">
                <UserRoundX className="h-4 w-4" aria-hidden="true" />
                Deactivate{forName}
              </RowAction>
            )}
            <ConfirmDelete
              label={`Delete ${name}`}
              title="Delete this user?"
              description={`${name} (${user.email}) will be removed with their sessions and picture. This cannot be undone; to keep the account but stop the access, deactivate it instead.`}
              fields={{ intent: "delete", id: user.id }}
            />
          </div>
        )}
      </div>
    </li>
  );
}

/** Each role as the screen names it, in the order the filters and the row's buttons show them. */
const ROLE_LABELS: readonly (readonly [RoleName, string])[] = [
  ["admin", "Admin"],
  ["editor", "Editor"],
  ["member", "Member"],
];
const roleLabel = (role: RoleName) => ROLE_LABELS.find(([name]) => name === role)?.[1] ?? role;
const ROLE_NOUNS: Record<RoleName, string> = { admin: "an admin", editor: "an editor", member: "a member" };

const SELECTS: FilterSelects = {
  role: { label: "Role", options: ROLE_LABELS.map(([name, label]) => [name, label] as [string, string]) },
  status: {
    label: "Status",
    options: [
      ["active", "Active"],
      ["invited", "Invited"],
      ["deactivated", "Deactivated"],
    ],
  },
};

/** The users screen: search, filters, invite, role, activity, delete. */
export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { query, me } = loaderData;
  return (
    <AdminList
      title="Users"
      notices={resultNotices(actionData)}
      beforeFilters={<InviteForm result={actionData} />}
      search={{ id: "users", label: "Name or e-mail" }}
      filters={{
        label: "Filter the users",
        selects: SELECTS,
        grid: "sm:grid-cols-2 lg:grid-cols-[1fr_10rem_12rem_auto]",
        searchClassName: "sm:col-span-2 lg:col-span-1",
        buttonClassName: "sm:col-span-2 lg:col-span-1",
      }}
      params={filterParams({ search: query.search, role: query.role, status: query.status })}
      page={loaderData}
      noun={["user", "users"]}
      empty="No users match."
      layout="cards"
      path="/manager/users"
      paging="pages"
      renderRow={(user) => <UserRow user={user} isMe={user.id === me} />}
    />
  );
}
