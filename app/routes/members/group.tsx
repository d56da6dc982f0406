import { CalendarDays, CalendarPlus, FilePlus2, FolderOpen, Settings2, UserPlus } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, useNavigation, useRevalidator } from "react-router";
import { editsFor, editsGroups } from "../../../core/access/access";
import { type GroupPerson, groupMemberAddSchema } from "../../../core/groups/groups.schema";
import { paperInputSchema } from "../../../core/library/library.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { RowActionForm } from "../../components/admin/admin-list";
import { formatDateRange } from "../../components/events/format";
import { flattenTree, type LibraryResult, typedValues } from "../../components/library/library-admin";
import { PaperForm } from "../../components/library/paper-editor";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { firstMessages, formId } from "../../lib/forms";
import { TWO_FACTOR_SETUP_PATH } from "../../lib/guards";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/group";

const notFound = () => data("This page could not be found", { status: 404 });

/** What a chair reads on their group's page while the site asks them for two-factor sign-in (decision 0086). */
export const CHAIR_TWO_FACTOR_FIRST =
  "The association asks its chairs to sign in with a second factor: until it is on, you cannot add papers or manage the group's meetings.";

/**
 * /dashboard/groups/{slug}: a working group's page (issue 36). Personal (it depends on the
 * caller's groups): no `handle`, so never one of the shared renders of decision 0032. A member
 * outside the group gets 404, as for a group that does not exist.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  try {
    const group = await services.groups.detail(params.slug, { id: auth.user.id, role: auth.user.role.name });
    // Its chairs (and the secretariat) add papers to its categories from here (issue 36).
    // and manage its meetings in the admin area's Events.
    const manages = editsGroups(editsFor(auth), [group.id]);
    return {
      group,
      me: auth.user.id,
      manages,
      // A chair the site asks for two-factor sign-in manages nothing here until it is on (decision
      // 0086): where to turn it on.
      twoFactorFirst: group.is_chair && auth.twoFactorSetupRequired === true ? TWO_FACTOR_SETUP_PATH : null,
      folders: manages ? await services.library.groupTrees(group.id) : [],
    };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw notFound();
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData ? loaderData.group.name : "Group"} · Members area` },
];

type ActionData =
  | { notice: string }
  | { error: string }
  | { errors: Record<string, string>; values: { email: string } }
  | ({ paper: true } & LibraryResult);

/** A chair's (or an admin's) forms: add a person by address, remove a member. The service decides who may. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const viewer = { id: auth.user.id, role: auth.user.role.name };
  let form: Record<string, FormDataEntryValue>;
  try {
    form = await readForm(request);
  } catch (error) {
    // The page's form parser has a smaller limit than the API's (which the form uses with JavaScript).
    if (isAppError(error) && error.status === 413) {
      const message = `${error.message} Try again with JavaScript on, or a smaller file.`;
      return data<ActionData>(
        { paper: true, intent: "save", row: "paper-form", errors: { uploaded_file: [message] } },
        { status: 413 },
      );
    }
    throw error;
  }
  const email = typeof form.email === "string" ? form.email : "";
  try {
    const group = await services.groups.detail(params.slug, viewer);
    if (form.intent === "save") {
      // A chair's paper in one of the group's categories (the service refuses any other, with why).
      try {
        const input = parseOrThrow(paperInputSchema, form);
        const file = form.uploaded_file instanceof File && form.uploaded_file.size > 0 ? form.uploaded_file : null;
        const saved = await services.libraryAdmin.createPaper(input, file, editsFor(auth));
        // The group's members read shared renders (keyed by their groups): they move on now.
        await services.contentVersion.changed();
        return data<ActionData>({ notice: `Added “${saved.name}”.` });
      } catch (error) {
        if (!isAppError(error)) throw error;
        const errors = error.details.errors as Record<string, string[]> | undefined;
        return data<ActionData>(
          errors
            ? { paper: true, intent: "save", row: "paper-form", errors, values: typedValues(form) }
            : { paper: true, intent: "save", row: "paper-form", error: error.message },
          { status: error.status },
        );
      }
    }
    if (form.intent === "add") {
      const person = await services.groups.addMember(group.id, parseOrThrow(groupMemberAddSchema, { email }), viewer);
      return data<ActionData>({ notice: `${person.name} is now in the group.` });
    }
    if (form.intent === "remove") {
      const userId = formId(form);
      const name = group.members.find((m) => m.user_id === userId)?.name ?? "The person";
      await services.groups.removeMember(group.id, userId, viewer);
      return data<ActionData>({ notice: `${name} is no longer in the group.` });
    }
    return data<ActionData>({ error: "Unknown action." }, { status: 400 });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "not_found" && form.intent !== "remove") throw notFound();
    if (error.code === "validation") {
      return data<ActionData>(
        { errors: firstMessages(error.details.errors ?? {}), values: { email } },
        { status: error.status },
      );
    }
    return data<ActionData>({ error: error.message }, { status: error.status });
  }
}

function Person({ person, me }: { person: GroupPerson; me: number }) {
  return (
    <span>
      <span className="font-semibold text-navy-900">{person.name}</span>
      {person.user_id === me ? <span className="text-sm text-slate-500"> (you)</span> : null}
      {person.company ? <span className="block text-sm text-slate-600">{person.company}</span> : null}
    </span>
  );
}

export default function Group({ loaderData, actionData }: Route.ComponentProps) {
  const { group, me, folders, manages, twoFactorFirst } = loaderData;
  const [status, setStatus] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "add";
  const result = actionData as ActionData | undefined;
  const errors = result && "errors" in result && !("paper" in result) ? result.errors : {};
  const paperResult = result && "paper" in result ? result : undefined;
  return (
    <div>
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link to="/dashboard/groups" className="hover:underline">
          Working groups
        </Link>{" "}
        / <span aria-current="page">{group.name}</span>
      </nav>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">{group.name}</h1>
      {group.description ? (
        <p className="mt-3 max-w-3xl whitespace-pre-line text-slate-700">{group.description}</p>
      ) : null}
      {group.is_chair ? <p className="mt-2 text-sm font-semibold text-sea-700">You chair this group.</p> : null}
      {twoFactorFirst ? (
        <Notice tone="error" className="mt-6">
          {CHAIR_TWO_FACTOR_FIRST}{" "}
          <Link to={twoFactorFirst} className="font-semibold underline">
            Turn it on in your settings
          </Link>
        </Notice>
      ) : null}
      {(status ?? (result && "notice" in result ? result.notice : null)) ? (
        <Notice tone="success" className="mt-6">
          {status ?? (result && "notice" in result ? result.notice : null)}
        </Notice>
      ) : null}
      {result && "error" in result && !("paper" in result) ? (
        <Notice tone="error" className="mt-6">
          {result.error}
        </Notice>
      ) : null}

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="library-title">
          <h2 id="library-title" className="font-display text-2xl font-bold text-navy-900">
            Library
          </h2>
          {group.categories.length === 0 ? (
            <p className="mt-3 text-slate-600">No library category is for this group yet.</p>
          ) : (
            <ul className="mt-3 flex flex-wrap gap-2">
              {group.categories.map((category) => (
                <li key={category.id}>
                  <Link
                    to={category.url}
                    className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1.5 text-sm font-semibold text-navy-900 shadow-sm ring-1 ring-slate-200 hover:bg-slate-50"
                  >
                    <FolderOpen className="h-4 w-4" aria-hidden="true" />
                    {category.name}
                    <span className="font-normal text-slate-600">({category.papers_count})</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {group.papers.length > 0 ? (
            <>
              <h3 className="mt-5 font-semibold text-slate-800">Latest papers</h3>
              <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
                {group.papers.map((paper) => (
                  <li key={paper.id} className="p-3">
                    {paper.file_url ? (
                      <a href={paper.file_url} className="font-semibold text-navy-900 hover:underline">
                        {[paper.number, paper.name].filter(Boolean).join(" ")}
                      </a>
                    ) : (
                      <span className="font-semibold text-navy-900">
                        {[paper.number, paper.name].filter(Boolean).join(" ")}
                      </span>
                    )}
                    <p className="text-sm text-slate-600">
                      <Link to={paper.category.url} className="hover:underline">
                        {paper.category.name}
                      </Link>{" "}
                      · updated {paper.updated_at.slice(0, 10)}
                    </p>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
        <section aria-labelledby="meetings-title">
          <h2 id="meetings-title" className="font-display text-2xl font-bold text-navy-900">
            Meetings
          </h2>
          {manages ? (
            <p className="mt-2 flex flex-wrap gap-2">
              <Link to={`/manage-events/new?group=${group.id}`} className="btn-outline py-1.5">
                <CalendarPlus className="h-4 w-4" aria-hidden="true" />
                New meeting for the group
              </Link>
              <Link to="/manage-events" className="btn-ghost py-1.5">
                <Settings2 className="h-4 w-4" aria-hidden="true" />
                Manage meetings and registrations
              </Link>
            </p>
          ) : null}
          {group.meetings.length === 0 ? (
            <p className="mt-3 text-slate-600">No meeting of this group is coming up.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
              {group.meetings.map((meeting) => (
                <li key={meeting.id} className="p-3">
                  <Link to={meeting.url} className="font-semibold text-navy-900 hover:underline">
                    {meeting.title}
                  </Link>
                  <p className="text-sm text-slate-600">
                    <CalendarDays className="mr-1 inline h-4 w-4 align-text-bottom" aria-hidden="true" />
                    <time dateTime={meeting.start_date}>{formatDateRange(meeting.start_date, meeting.end_date)}</time>
                    {meeting.location ? ` · ${meeting.location}` : ""}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      {folders.length > 0 ? (
        <details className="mt-8" open={paperResult !== undefined}>
          <summary className="btn-outline inline-flex cursor-pointer list-none [&::-webkit-details-marker]:hidden">
            <FilePlus2 className="h-4 w-4" aria-hidden="true" />
            Add a paper to the group's library
          </summary>
          <PaperForm
            paper={null}
            categoryId={folders[0].id}
            flat={flattenTree(folders)}
            pageResult={paperResult}
            cancelTo={`/dashboard/groups/${group.slug}`}
            onSaved={(message) => {
              setStatus(message);
              revalidator.revalidate();
            }}
          />
        </details>
      ) : null}

      <section aria-labelledby="people-title" className="mt-10">
        <h2 id="people-title" className="font-display text-2xl font-bold text-navy-900">
          Chairs and members <span className="text-base font-normal text-slate-600">({group.member_count})</span>
        </h2>
        <ul className="mt-4 divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          {group.members.map((person) => (
            <li key={person.user_id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <Person person={person} me={me} />
              <span className="flex items-center gap-3">
                {person.is_chair ? (
                  <span className="rounded-full bg-navy-900 px-2 py-0.5 text-xs font-semibold text-white">Chair</span>
                ) : null}
                {group.can_manage_members && !person.is_chair ? (
                  <RowActionForm fields={{ intent: "remove", id: person.user_id }}>
                    Remove<span className="sr-only"> {person.name} from the group</span>
                  </RowActionForm>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        {group.can_manage_members ? (
          <Form method="post" noValidate preventScrollReset className="mt-6 flex flex-wrap items-start gap-3">
            <input type="hidden" name="intent" value="add" />
            <div className="min-w-64 flex-1">
              <TextField
                id="group-add-email"
                name="email"
                type="email"
                label="Add a member by e-mail address"
                hint="A representative of a member company, an individual member, or the secretariat."
                defaultValue={result && "values" in result && !("paper" in result) ? result.values.email : ""}
                error={errors.email}
                autoComplete="off"
              />
            </div>
            <button type="submit" className="btn-primary mt-7" disabled={adding}>
              <UserPlus className="h-4 w-4" aria-hidden="true" />
              {adding ? "Adding…" : "Add to the group"}
            </button>
          </Form>
        ) : null}
      </section>
    </div>
  );
}
