import { Download, Search } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { privacyEraseSchema, privacyLookupSchema } from "../../../core/privacy/privacy.schema";
import { isAppError } from "../../../lib/errors";
import { minuteInZone } from "../../../lib/time-zones";
import { parseOrThrow } from "../../../lib/validation";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { fieldFailureOf, firstMessages } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = () => [{ title: "Personal data requests · Manager" }];

const KIND_NAMES = { join: "Membership request", registration: "Registration", message: "Message" } as const;

/** `?email=`: what is held about that address; `?erased=`: the erasure just done, said once. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const asked = url.searchParams.get("email")?.trim() ?? "";
  const erased = url.searchParams.get("erased");
  const zone = (await services.settings.getAll())["site.timezone"];
  if (!asked) return { asked, found: null, error: null, erased, zone };
  const parsed = privacyLookupSchema.safeParse({ email: asked });
  if (!parsed.success) {
    return {
      asked,
      found: null,
      error: parsed.error.issues[0]?.message ?? "Enter a valid e-mail address.",
      erased,
      zone,
    };
  }
  const found = await services.privacy.lookup(parsed.data.email);
  return {
    asked,
    error: null,
    erased,
    zone,
    found: {
      ...found,
      requests: found.requests.map((r) => ({ ...r, created: minuteInZone(r.created_at, zone) })),
      mails: {
        ...found.mails,
        latest: found.mails.latest.map((m) => ({ ...m, created: minuteInZone(m.created_at, zone) })),
      },
    },
  };
}

/** The erasure: the address typed twice; done, the page shows the address again (with nothing left) and what went. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const form = await readForm(request);
  try {
    const input = parseOrThrow(privacyEraseSchema, { email: form.email, confirm: form.confirm });
    const name = `${auth.user.first_name} ${auth.user.last_name}`.trim() || auth.user.email;
    const erased = await services.privacy.eraseFor(input.email, { id: auth.user.id, name });
    const said = [
      erased.account ? "the account deleted" : null,
      `${erased.requests} ${erased.requests === 1 ? "request" : "requests"} anonymised`,
      erased.registrations_cancelled ? `${erased.registrations_cancelled} upcoming registration(s) cancelled` : null,
      `${erased.mails} ${erased.mails === 1 ? "mail" : "mails"} removed`,
    ]
      .filter(Boolean)
      .join(", ");
    throw redirect(`/manager/privacy?${new URLSearchParams({ email: input.email, erased: said })}`);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isAppError(error) && !error.details.errors) {
      return data({ errors: { form: error.message } as Record<string, string> }, { status: error.status });
    }
    const { errors, status } = fieldFailureOf(error);
    return data({ errors: firstMessages(errors) }, { status });
  }
}

/**
 * Personal data requests (issue 35): the secretariat finds everything held about an address, with
 * or without an account, downloads it as the member's own ZIP, or erases it (typed twice).
 */
export default function PrivacyRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { asked, found, error, erased, zone } = loaderData;
  const navigation = useNavigation();
  const erasing = navigation.state !== "idle" && navigation.formData?.get("intent") === "erase";
  const errors = actionData?.errors ?? {};
  const nothing =
    found && !found.account && found.requests.length === 0 && found.mails.latest.length === 0 && !found.bounced;
  return (
    <div>
      <h1 className="font-display text-4xl font-bold text-navy-900">Personal data requests</h1>
      <p className="mt-2 max-w-3xl text-slate-600">
        Answer a person who asks what the association holds about them, or asks for it to be erased (GDPR Articles 15
        and 17). Search by e-mail address: accounts, membership requests, registrations, messages and e-mails are found
        whether or not the person has an account. Times in {zone} time.
      </p>
      <Form method="get" className="mt-6 flex max-w-2xl flex-wrap items-end gap-3" role="search">
        <div className="min-w-64 flex-1">
          <TextField
            id="privacy-email"
            name="email"
            type="email"
            label="E-mail address"
            autoComplete="off"
            defaultValue={asked}
            error={error ?? undefined}
          />
        </div>
        <button type="submit" className="btn-primary">
          <Search className="h-4 w-4" aria-hidden="true" />
          Find
        </button>
      </Form>
      {erased ? (
        <Notice tone="success" className="mt-6">
          Erased: {erased}.
        </Notice>
      ) : null}
      {found ? (
        <div className="mt-8 space-y-6">
          <section className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" aria-labelledby="held-title">
            <h2 id="held-title" className="font-display text-2xl font-bold text-navy-900">
              Held about {found.email}
            </h2>
            {nothing ? (
              <p className="mt-3 text-slate-700">Nothing is held about this address.</p>
            ) : (
              <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
                <dt className="font-semibold text-slate-800">Account</dt>
                <dd>
                  {found.account ? (
                    <>
                      {found.account.name} ({found.account.role}),{" "}
                      <Link
                        to={`/manager/users?search=${encodeURIComponent(found.account.email)}`}
                        className="underline"
                      >
                        open in Users
                      </Link>
                    </>
                  ) : (
                    "None"
                  )}
                </dd>
                {found.companies.length > 0 ? (
                  <>
                    <dt className="font-semibold text-slate-800">Represents</dt>
                    <dd>{found.companies.map((c) => c.name).join(", ")}</dd>
                  </>
                ) : null}
                <dt className="font-semibold text-slate-800">Requests and registrations</dt>
                <dd>
                  {found.requests.length === 0 ? (
                    "None"
                  ) : (
                    <ul className="space-y-1">
                      {found.requests.map((r) => (
                        <li key={r.id}>
                          {KIND_NAMES[r.kind]} #{r.id}
                          {r.about ? `: ${r.about}` : ""} — {r.created}
                          {r.state ? ` (${r.state})` : ""}
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
                <dt className="font-semibold text-slate-800">E-mails</dt>
                <dd>
                  {found.mails.waiting} waiting, {found.mails.sent} sent, {found.mails.failed} failed
                  {found.mails.latest.length > 0 ? (
                    <ul className="mt-1 space-y-1 text-slate-600">
                      {found.mails.latest.slice(0, 5).map((m) => (
                        <li key={m.id}>
                          {m.created}: {m.subject} ({m.status})
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </dd>
                {found.bounced ? (
                  <>
                    <dt className="font-semibold text-slate-800">Refused for good</dt>
                    <dd>{found.bounced.reason}</dd>
                  </>
                ) : null}
                <dt className="font-semibold text-slate-800">Audit log</dt>
                <dd>
                  {found.audit_entries} {found.audit_entries === 1 ? "entry" : "entries"} about them or by them (kept
                  for the log's retention)
                </dd>
              </dl>
            )}
            <a
              href={`/manager/privacy/export.zip?${new URLSearchParams({ email: found.email })}`}
              download
              className="btn-outline mt-6 inline-flex"
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              Download everything as a ZIP
            </a>
          </section>
          {nothing ? null : (
            <section className="rounded-xl border border-red-200 bg-white p-6 shadow-sm" aria-labelledby="erase-title">
              <h2 id="erase-title" className="font-display text-2xl font-bold text-red-800">
                Erase
              </h2>
              <p className="mt-2 max-w-3xl text-sm text-slate-700">
                The account, if any, is deleted as its owner would delete it. Requests and registrations are kept
                without the person's name, address, phone, note or message (the counts stay true); registrations for
                meetings still to come are cancelled. E-mails to the address are removed. This cannot be undone; the
                audit log records it with the address masked.
              </p>
              {errors.form ? (
                <Notice tone="error" className="mt-4">
                  {errors.form}
                </Notice>
              ) : null}
              <Form method="post" noValidate className="mt-4 flex max-w-2xl flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="erase" />
                <input type="hidden" name="email" value={found.email} />
                <div className="min-w-64 flex-1">
                  <TextField
                    id="privacy-confirm"
                    name="confirm"
                    label={`Type ${found.email} to confirm`}
                    autoComplete="off"
                    error={errors.confirm ?? errors.email}
                  />
                </div>
                <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={erasing}>
                  {erasing ? "Erasing…" : "Erase everything"}
                </button>
              </Form>
            </section>
          )}
        </div>
      ) : null}
    </div>
  );
}
