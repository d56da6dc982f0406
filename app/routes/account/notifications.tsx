import { BellRing } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { viewerOf } from "../../../core/access/access";
import {
  type Delivery,
  type Follow,
  followSchema,
  type Preferences,
  preferencesUpdateSchema,
} from "../../../core/notifications/notifications.schema";
import { parseOrThrow } from "../../../lib/validation";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { fieldFailureOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = () => [{ title: "Notifications · Members area" }];

type ActionData = {
  saved?: string;
  error?: string;
  /** The private feed's new address: shown once, only its hash is kept. */
  feedUrl?: string;
  /** What the feed form's password field says. */
  passwordError?: string;
};

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const [preferences, categories, hasFeed] = await Promise.all([
    services.notifications.preferences(auth.user.id),
    services.library.followableCategories(viewerOf(auth)),
    services.profile.hasLibraryFeed(auth.user.id),
  ]);
  const followed = url.searchParams.get("followed");
  return { preferences, categories, hasFeed, followed: followed === null ? null : followed.slice(0, 200) };
}

/** A delivery select's value: not followed, at once, or in the digest. */
type Choice = "off" | Delivery;
const CHOICE_LABELS: Record<Choice, string> = {
  off: "Not followed",
  instant: "E-mail at once",
  digest: "In my digest",
};
const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");
const asChoice = (value: FormDataEntryValue | undefined): Choice =>
  value === "instant" || value === "digest" ? value : "off";

/** The page's form as a preferences update: each row's choice, and the category to add. */
function updateFrom(form: Record<string, FormDataEntryValue>) {
  const follows: Follow[] = [];
  for (const kind of ["news", "meetings"] as const) {
    const choice = asChoice(form[kind]);
    if (choice !== "off") follows.push({ kind, delivery: choice });
  }
  const categoryIds = new Set<number>();
  for (const [name, value] of Object.entries(form)) {
    const match = /^category-(\d{1,12})$/.exec(name);
    const choice = asChoice(value);
    if (match && choice !== "off" && !categoryIds.has(Number(match[1]))) {
      categoryIds.add(Number(match[1]));
      follows.push({ kind: "category", id: Number(match[1]), delivery: choice });
    }
  }
  const added = text(form.add_category);
  if (/^\d{1,12}$/.test(added) && !categoryIds.has(Number(added))) {
    follows.push({
      kind: "category",
      id: Number(added),
      delivery: asChoice(form.add_delivery) === "digest" ? "digest" : "instant",
    });
  }
  return { follows, digest: text(form.digest), announcements: form.announcements === "on" };
}

/**
 * Saves the page's choices (intent save), or follows one thing from a Follow button on a category
 * page, /news or /events (intent follow), then comes back here to show it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const form = await readForm(request);
  if (form.intent === "library-feed") {
    try {
      const token = await services.profile.renewLibraryFeedToken(auth.user.id, text(form.password) || undefined);
      return data<ActionData>({
        saved: "Your private feed address is ready.",
        feedUrl: `${getRequestContext(context).origin}/library-feed/${token}.xml`,
      });
    } catch (error) {
      const { errors, status } = fieldFailureOf(error);
      return data<ActionData>({ passwordError: errors.password?.[0] ?? "Please try again." }, { status });
    }
  }
  if (form.intent === "end-library-feed") {
    await services.profile.endLibraryFeed(auth.user.id);
    return data<ActionData>({ saved: "Your private feed address no longer works." });
  }
  try {
    if (form.intent === "follow") {
      const follow = parseOrThrow(followSchema, { kind: form.kind, id: form.id, delivery: form.delivery });
      // Followed already: the button keeps how they chose to hear of it.
      const { follows } = await services.notifications.preferences(auth.user.id);
      if (!follows.some((f) => f.kind === follow.kind && f.id === follow.id)) {
        await services.notifications.follow(auth.user.id, viewerOf(auth), follow);
      }
      const name = text(form.name).slice(0, 200);
      return redirect(`/dashboard/notifications?followed=${encodeURIComponent(name)}`);
    }
    const update = parseOrThrow(preferencesUpdateSchema, updateFrom(form));
    await services.notifications.update(auth.user.id, viewerOf(auth), update);
    return data<ActionData>({ saved: "Your notification preferences are saved." });
  } catch (error) {
    const { errors, status } = fieldFailureOf(error);
    const message = Object.values(errors).flat()[0] ?? "Your preferences could not be saved. Please try again.";
    return data<ActionData>({ error: message }, { status });
  }
}

function DeliverySelect({ name, label, value }: { name: string; label: string; value: Choice }) {
  return (
    <select
      name={name}
      aria-label={label}
      defaultValue={value}
      className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-sea-600 focus:outline-none focus:ring-2 focus:ring-sea-600"
    >
      {(Object.keys(CHOICE_LABELS) as Choice[]).map((choice) => (
        <option key={choice} value={choice}>
          {CHOICE_LABELS[choice]}
        </option>
      ))}
    </select>
  );
}

const choiceOf = (preferences: Preferences, kind: string, id?: number): Choice =>
  preferences.follows.find((f) => f.kind === kind && f.id === id)?.delivery ?? "off";

/** `/dashboard/notifications`: what a member follows, how they hear of it, and how often (issue 33). */
export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { preferences, categories, followed, hasFeed } = loaderData;
  const result = actionData as ActionData | undefined;
  const saving = useNavigation().state === "submitting";
  const names = new Map(categories.map((c) => [c.id, c.name]));
  const followedCategories = preferences.follows.filter((f) => f.kind === "category" && f.id !== undefined);
  const followedIds = new Set(followedCategories.map((f) => f.id));
  const addable = categories.filter((c) => !followedIds.has(c.id));
  return (
    <div className="max-w-3xl">
      <div className="flex items-center gap-3">
        <BellRing className="h-7 w-7 text-sea-600" aria-hidden="true" />
        <h1 className="font-display text-3xl font-bold text-navy-900">Notifications</h1>
      </div>
      <p className="mt-2 text-slate-600">
        Choose what you hear about by e-mail: new documents in the library categories you follow, news and meetings.
        Each can come at once (within a few minutes, several together in one e-mail) or in your digest.
      </p>
      <div aria-live="polite" className="mt-4 space-y-2">
        {followed !== null && !result ? (
          <Notice tone="success">{followed ? `You now follow ${followed}.` : "You now follow it."}</Notice>
        ) : null}
        {result?.saved ? <Notice tone="success">{result.saved}</Notice> : null}
        {result?.error ? <Notice tone="error">{result.error}</Notice> : null}
      </div>
      <Form method="post" className="mt-6 space-y-8">
        <input type="hidden" name="intent" value="save" />
        <section aria-labelledby="follows-title" className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="follows-title" className="font-display text-xl font-bold text-navy-900">
            What you follow
          </h2>
          <ul className="mt-4 divide-y divide-slate-100">
            <li className="flex flex-wrap items-center justify-between gap-3 py-3">
              <span className="font-semibold text-slate-800">News</span>
              <DeliverySelect name="news" label="News" value={choiceOf(preferences, "news")} />
            </li>
            <li className="flex flex-wrap items-center justify-between gap-3 py-3">
              <span className="font-semibold text-slate-800">Meetings</span>
              <DeliverySelect name="meetings" label="Meetings" value={choiceOf(preferences, "meetings")} />
            </li>
            {followedCategories.map((f) => {
              const name = names.get(f.id as number) ?? "A category you may no longer see";
              return (
                <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <span className="text-slate-800">
                    <span className="sr-only">Library category: </span>
                    {name}
                  </span>
                  <DeliverySelect name={`category-${f.id}`} label={`Library category ${name}`} value={f.delivery} />
                </li>
              );
            })}
          </ul>
          {addable.length > 0 ? (
            <fieldset className="mt-4 min-w-0 rounded-lg bg-slate-50 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-800">Follow a library category</legend>
              <p className="text-sm text-slate-600">Its sub-categories are followed with it.</p>
              <div className="mt-3 flex flex-wrap gap-3">
                <label className="sr-only" htmlFor="add-category">
                  Category
                </label>
                <select
                  id="add-category"
                  name="add_category"
                  defaultValue=""
                  className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm sm:w-auto sm:flex-1"
                >
                  <option value="">Choose a category…</option>
                  {addable.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
                <label className="sr-only" htmlFor="add-delivery">
                  How to hear of it
                </label>
                <select
                  id="add-delivery"
                  name="add_delivery"
                  defaultValue="instant"
                  className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
                >
                  <option value="instant">{CHOICE_LABELS.instant}</option>
                  <option value="digest">{CHOICE_LABELS.digest}</option>
                </select>
              </div>
            </fieldset>
          ) : null}
        </section>

        <fieldset className="min-w-0 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <legend className="float-left w-full font-display text-xl font-bold text-navy-900">Digest</legend>
          <p className="clear-both pt-1 text-sm text-slate-600">
            One e-mail with what is new in what you follow in your digest, each morning or on Monday mornings.
          </p>
          <div className="mt-3 flex flex-wrap gap-6">
            {(
              [
                ["daily", "Daily"],
                ["weekly", "Weekly (Monday)"],
                ["never", "Never"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-slate-800">
                <input
                  type="radio"
                  name="digest"
                  value={value}
                  defaultChecked={preferences.digest === value}
                  className="h-4 w-4 accent-sea-600"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <section
          aria-labelledby="announcements-title"
          className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <h2 id="announcements-title" className="font-display text-xl font-bold text-navy-900">
            Announcements
          </h2>
          <label className="mt-3 flex items-center gap-2 text-slate-800">
            <input
              type="checkbox"
              name="announcements"
              defaultChecked={preferences.announcements}
              className="h-4 w-4 accent-sea-600"
            />
            Send me the association's announcements to the members
          </label>
        </section>

        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className="btn bg-navy-900 text-white hover:bg-navy-800" disabled={saving}>
            {saving ? "Saving…" : "Save preferences"}
          </button>
          <Link to="/dashboard" className="text-sm font-semibold text-sea-700 underline hover:text-sea-600">
            Back to the members area
          </Link>
        </div>
      </Form>
      <PrivateFeed hasFeed={hasFeed} result={result} />
    </div>
  );
}

/**
 * The private feed of the followed categories (issue 33): an address for a feed reader, made with
 * the current password (it reads members-only papers without a session), shown once.
 */
function PrivateFeed({ hasFeed, result }: { hasFeed: boolean; result: ActionData | undefined }) {
  const busy = useNavigation().formData?.get("intent");
  return (
    <section
      id="feed"
      aria-labelledby="feed-title"
      className="mt-8 scroll-mt-24 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="feed-title" className="font-display text-xl font-bold text-navy-900">
        Your private feed
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The new documents of the categories you follow, for a feed reader (Atom). The address is yours alone: whoever
        has it reads what you may read. A new address, or a new password, ends the old one.
      </p>
      {result?.feedUrl ? (
        <div className="mt-4">
          <label htmlFor="library-feed-url" className="text-sm font-semibold text-navy-900">
            Your private feed address (shown only now: copy it into your feed reader)
          </label>
          <input
            id="library-feed-url"
            readOnly
            value={result.feedUrl}
            className="mt-1 w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm"
          />
        </div>
      ) : hasFeed ? (
        <p className="mt-4 text-sm text-slate-700">
          Your private feed address is active. For your security it is not shown again: make a new one if you need it.
        </p>
      ) : null}
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="library-feed" />
        <div className="min-w-0">
          <label htmlFor="feed_password" className="block text-sm font-semibold text-slate-800">
            Current password, to make an address
          </label>
          <input
            id="feed_password"
            name="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={result?.passwordError ? true : undefined}
            aria-describedby={result?.passwordError ? "feed_password-error" : undefined}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm sm:w-72"
          />
          {result?.passwordError ? (
            <p id="feed_password-error" className="mt-1 text-sm text-red-700">
              {result.passwordError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary" disabled={busy === "library-feed"}>
          {hasFeed || result?.feedUrl ? "Make a new address" : "Make my feed address"}
        </button>
      </Form>
      {hasFeed || result?.feedUrl ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="end-library-feed" />
          <button type="submit" className="btn-outline" disabled={busy === "end-library-feed"}>
            Stop my feed address
          </button>
        </Form>
      ) : null}
    </section>
  );
}
