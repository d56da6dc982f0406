import { ExternalLink, Plus } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import {
  CHAIRS_MAX,
  GROUP_DESCRIPTION_MAX,
  GROUP_NAME_MAX,
  type GroupSummary,
  groupCreateSchema,
  groupUpdateSchema,
} from "../../../core/groups/groups.schema";
import { isAppError } from "../../../lib/errors";
import { isEmailAddress, parseOrThrow } from "../../../lib/validation";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { ListHeader } from "../../components/ui/list-header";
import { Notice } from "../../components/ui/notice";
import { TextAreaField } from "../../components/ui/text-area-field";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { firstMessages, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/groups";

export const meta: Route.MetaFunction = () => [{ title: "Working groups · Manager" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  return { groups: await services.groups.list({ id: auth.user.id, role: auth.user.role.name }) };
}

type ActionData =
  | { notice: string }
  | { error: string }
  | { errors: Record<string, string>; values: Record<string, string>; id: number | null };

/** Unknown addresses, named: the form asks for the chairs by the address they sign in with. */
const CHAIRS_UNKNOWN = (addresses: string[]) =>
  `No active account uses ${addresses.join(", ")}. Invite them first (Users), then name them chairs.`;

/** The chairs field: addresses separated by commas, spaces or lines, each an active account's. */
async function chairIds(
  text: string,
  findActive: (ref: { email: string }) => Promise<{ id: number } | null>,
): Promise<{ ids: number[] } | { error: string }> {
  const addresses = [...new Set(text.split(/[\s,;]+/).filter(Boolean))].map((a) => a.toLowerCase());
  // Checked before any lookup: a pasted list of thousands is one refusal, not thousands of queries.
  if (addresses.length > CHAIRS_MAX) return { error: `A group may have at most ${CHAIRS_MAX} chairs.` };
  const malformed = addresses.filter((a) => !isEmailAddress(a));
  if (malformed.length) return { error: `Not an e-mail address: ${malformed.join(", ")}.` };
  const found = await Promise.all(addresses.map((email) => findActive({ email })));
  const unknown = addresses.filter((_, i) => !found[i]);
  if (unknown.length) return { error: CHAIRS_UNKNOWN(unknown) };
  return { ids: found.map((f) => f?.id ?? 0) };
}

/** Create, change (name, description, chairs) and delete: one form each, all without JavaScript. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const form = await readForm(request);
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  const values = { name: text("name"), description: text("description"), chairs: text("chairs") };
  const id = form.intent === "create" ? null : formId(form);
  try {
    if (form.intent === "delete" && id !== null) {
      await services.groups.remove(id);
      return data<ActionData>({ notice: "The group is deleted." });
    }
    const chairs = await chairIds(values.chairs, (ref) => services.accounts.findActive(ref));
    if ("error" in chairs) {
      return data<ActionData>({ errors: { chairs: chairs.error }, values, id }, { status: 422 });
    }
    const input = { name: values.name, description: values.description, chair_ids: chairs.ids };
    if (form.intent === "create") {
      const group = await services.groups.create(parseOrThrow(groupCreateSchema, input));
      return data<ActionData>({ notice: `The group “${group.name}” is created.` });
    }
    if (id !== null) {
      const group = await services.groups.update(id, parseOrThrow(groupUpdateSchema, input));
      return data<ActionData>({ notice: `“${group.name}” is saved.` });
    }
    return data<ActionData>({ error: "Unknown action." }, { status: 400 });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "validation") {
      const errors = firstMessages(error.details.errors ?? {});
      // The service names the chairs by id; the form asked for addresses.
      if (errors.chair_ids) errors.chairs = errors.chair_ids;
      return data<ActionData>({ errors, values, id }, { status: error.status });
    }
    return data<ActionData>({ error: error.message }, { status: error.status });
  }
}

function GroupFields({
  prefix,
  group,
  result,
}: {
  prefix: string;
  group?: GroupSummary;
  result: ActionData | undefined;
}) {
  const mine = result && "errors" in result && (group ? result.id === group.id : result.id === null);
  const errors = mine && result && "errors" in result ? result.errors : {};
  const values = mine && result && "errors" in result ? result.values : null;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <TextField
        id={`${prefix}-name`}
        name="name"
        label="Name"
        required
        maxLength={GROUP_NAME_MAX}
        defaultValue={values?.name ?? group?.name ?? ""}
        error={errors.name}
      />
      <TextField
        id={`${prefix}-chairs`}
        name="chairs"
        label="Chairs"
        hint="Their sign-in e-mail addresses, separated by commas. A chair is a member of the group and manages its members."
        defaultValue={values?.chairs ?? group?.chairs.map((c) => c.email).join(", ") ?? ""}
        error={errors.chairs}
      />
      <div className="md:col-span-2">
        <TextAreaField
          id={`${prefix}-description`}
          name="description"
          label="Description"
          rows={3}
          maxLength={GROUP_DESCRIPTION_MAX}
          defaultValue={values?.description ?? group?.description ?? ""}
          error={errors.description}
        />
      </div>
    </div>
  );
}

/** The admins' screen of the working groups (issue 36). */
export default function Groups({ loaderData, actionData }: Route.ComponentProps) {
  const { groups } = loaderData;
  const result = actionData as ActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div>
      <ListHeader
        title="Working groups"
        description="Committees, working groups and the board: their chairs add and remove the members on the group's page."
      />
      {result && "notice" in result ? (
        <Notice tone="success" className="mt-6">
          {result.notice}
        </Notice>
      ) : null}
      {result && "error" in result ? (
        <Notice tone="error" className="mt-6">
          {result.error}
        </Notice>
      ) : null}
      <details className="mt-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200" open={groups.length === 0}>
        <summary className="cursor-pointer font-semibold text-navy-900">
          <Plus className="mr-1 inline h-4 w-4" aria-hidden="true" />
          New group
        </summary>
        <Form method="post" noValidate preventScrollReset className="mt-4">
          <input type="hidden" name="intent" value="create" />
          <GroupFields prefix="new-group" result={result} />
          <button type="submit" className="btn-primary mt-4" disabled={busy}>
            Create group
          </button>
        </Form>
      </details>
      <p className="mt-6 text-sm text-slate-600">
        {groups.length} group{groups.length === 1 ? "" : "s"}
      </p>
      <ul className="mt-2 space-y-4">
        {groups.map((group) => (
          <li key={group.id} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <h2 className="text-lg font-semibold text-navy-900">
                {group.name}{" "}
                <span className="text-sm font-normal text-slate-600">
                  · {group.member_count} member{group.member_count === 1 ? "" : "s"}
                </span>
              </h2>
              <span className="flex items-center gap-2">
                <Link to={`/dashboard/groups/${group.slug}`} className="btn-outline py-1.5 text-sm">
                  <ExternalLink className="h-4 w-4" aria-hidden="true" />
                  Members<span className="sr-only"> of {group.name}</span>
                </Link>
                <ConfirmDelete
                  label={`Delete ${group.name}`}
                  title="Delete this group?"
                  description={`${group.name} and its list of ${group.member_count} members will be removed. The people keep their accounts.`}
                  fields={{ intent: "delete", id: group.id }}
                />
              </span>
            </div>
            <Form method="post" noValidate preventScrollReset className="mt-4">
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="id" value={group.id} />
              <GroupFields prefix={`group-${group.id}`} group={group} result={result} />
              <button type="submit" className="btn-outline mt-4" disabled={busy}>
                Save<span className="sr-only"> {group.name}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
