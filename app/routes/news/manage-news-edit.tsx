import { ImageOff } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { MEMBERSHIP_TYPES } from "../../../core/members/members.values";
import { postInputSchema, postUrl } from "../../../core/news/news.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { isoInZone } from "../../../lib/time-zones";
import { IMAGE_ACCEPT } from "../../../lib/uploads";
import { parseOrThrow } from "../../../lib/validation";
import { AuditHistory } from "../../components/admin/audit-rows";
import { PreviewLink, previewOf } from "../../components/admin/preview-link";
import {
  PublicationFields,
  publicationOf,
  publishOn,
  savedNotice,
  scheduledAt,
} from "../../components/admin/publication-fields";
import { RevisionsPanel } from "../../components/admin/revisions-panel";
import { AnnouncementPanel, type AnnouncementResult, audienceLabel } from "../../components/news/announcement-panel";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { ImageTextFields } from "../../components/ui/image-text-fields";
import { Notice } from "../../components/ui/notice";
import { RichTextEditor } from "../../components/ui/rich-text-editor";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { shownAuditRows } from "../../lib/audit";
import { setFlash } from "../../lib/flash.server";
import { actionRefusal, fieldFailureOf, lengthLimit } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import { shownRevisions } from "../../lib/revisions";
import type { Route } from "./+types/manage-news-edit";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.post ? "Edit post" : "New post"} · Manager` },
];

async function loadPost(context: Route.LoaderArgs["context"], id: string | undefined) {
  if (id === undefined) return null;
  const postId = parseId(id);
  if (postId === null) throw data("This page could not be found", { status: 404 });
  try {
    return await getRequestContext(context).services.news.getById(postId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const post = await loadPost(context, params.id);
  const { services, origin, auth } = getRequestContext(context);
  // A draft gets a link to read it as it will look (decision 0070): a new one, valid for a week, each time.
  const link = post && post.status !== "published" ? await services.news.previewLink(post.id) : null;
  // A scheduled time is shown and typed in the site's time zone (decision 0071).
  const zone = (await services.settings.getAll())["site.timezone"];
  return {
    post,
    zone,
    publishOn: publishOn(post, zone),
    revisions: post ? shownRevisions(await services.news.revisions(post.id), zone) : [],
    history: post ? shownAuditRows(await services.audit.history("news", post.id), zone) : [],
    restored: url.searchParams.get("restored"),
    // Mail to every member is the admins' (decision 0081): an editor writes the post, an admin sends it.
    announcement: post && auth?.user.role.name === "admin" ? await announcementData(context, post.id) : null,
    preview: previewOf(origin, link),
  };
}

/** The announcement panel's data (issue 33): the mail's preview, the audiences and their sizes, each sending so far. */
async function announcementData(context: Route.LoaderArgs["context"], postId: number) {
  const { services, auth } = getRequestContext(context);
  const site = await services.settings.getAll();
  const [preview, progress, audiences] = await Promise.all([
    services.announcements.preview(postId, auth?.user.first_name ?? ""),
    services.announcements.progress(postId),
    Promise.all(
      (["all", ...MEMBERSHIP_TYPES] as const).map(async (value) => ({
        value,
        label: audienceLabel(value),
        count: await services.announcements.count(value),
      })),
    ),
  ]);
  return {
    preview,
    audiences,
    perSecond: Number(site["mail.announcements_per_second"]),
    progress: progress.map((p) => ({
      ...p,
      when: isoInZone(new Date(p.created_at), site["site.timezone"]).slice(0, 16),
    })),
  };
}

const AUDIENCES = new Set<string>(["all", ...MEMBERSHIP_TYPES]);

/** What an editor hears who sends a post's announcement form anyway (the panel is not shown to them). */
export const ANNOUNCE_ADMINS_ONLY = "Sending a post to the members by e-mail is for admins: ask one to send it.";

/** The panel's three steps: a test to oneself, the confirmation (to whom, how many, sent before?), the send. */
async function announce(
  context: Route.ActionArgs["context"],
  postId: number,
  form: Record<string, FormDataEntryValue>,
) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  if (auth.user.role.name !== "admin") throw data(ANNOUNCE_ADMINS_ONLY, { status: 403 });
  if (form.intent === "announce-test") {
    await services.announcements.sendTest(postId, auth.user);
    return data<AnnouncementResult>({ announce: { notice: `A test is on its way to ${auth.user.email}.` } });
  }
  const audience = String(form.audience ?? "");
  if (!AUDIENCES.has(audience)) {
    return data<AnnouncementResult>({ announce: { error: "Choose who to send it to." } }, { status: 422 });
  }
  const chosen = audience as "all" | (typeof MEMBERSHIP_TYPES)[number];
  if (form.intent === "announce-confirm") {
    const [count, progress, site] = await Promise.all([
      services.announcements.count(chosen),
      services.announcements.progress(postId),
      services.settings.getAll(),
    ]);
    const last = progress[0];
    return data<AnnouncementResult>({
      announce: {
        confirm: {
          audience,
          label: audienceLabel(audience),
          count,
          sentBefore: last ? isoInZone(new Date(last.created_at), site["site.timezone"]).slice(0, 16) : null,
        },
      },
    });
  }
  try {
    const queued = await services.announcements.send(postId, {
      audience: chosen,
      again: form.again === "1",
      by: auth.user.id,
    });
    return data<AnnouncementResult>({
      announce: {
        notice: `${queued.toLocaleString("en-GB")} ${queued === 1 ? "e-mail is" : "e-mails are"} queued; they leave at the pace set in Settings. Their progress is below.`,
      },
    });
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") {
      return data<AnnouncementResult>({ announce: { error: error.message } }, { status: 409 });
    }
    const { errors, status } = fieldFailureOf(error);
    return data<AnnouncementResult>(
      { announce: { error: errors.audience?.[0] ?? "The post could not be sent. Please try again." } },
      { status },
    );
  }
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const post = await loadPost(context, params.id);
  const form = await readForm(request);
  if (post && typeof form.intent === "string" && form.intent.startsWith("announce")) {
    return announce(context, post.id, form);
  }
  if (post && form.intent === "restore") {
    const id = parseId(form.revision);
    if (id === null) throw data("Unknown revision.", { status: 400 });
    try {
      await services.news.restoreRevision(post.id, id);
    } catch (error) {
      return actionRefusal(error);
    }
    return redirect(`/manage-news/${post.id}/edit?restored=${id}`);
  }
  try {
    if (form.intent === "remove-image" && post) {
      await services.news.removeImage(post.id);
      return redirect(`/manage-news/${post.id}/edit`);
    }
    const file =
      form.image instanceof File && form.image.size > 0 ? new Uint8Array(await form.image.arrayBuffer()) : undefined;
    const zone = (await services.settings.getAll())["site.timezone"];
    const input = parseOrThrow(postInputSchema, {
      title: form.title,
      content: form.content,
      author_name: form.author_name,
      image_alt: form.image_alt,
      image_decorative: form.image_decorative,
      status: form.status,
      publish_at: form.status === "scheduled" ? scheduledAt(form.publish_date, form.publish_time, zone) : undefined,
    });
    const saved = post ? await services.news.update(post.id, input, file) : await services.news.create(input, file);
    const { sessionToken, secureCookies } = getRequestContext(context);
    const headers = sessionToken
      ? {
          "Set-Cookie": setFlash(savedNotice(saved, zone), { token: sessionToken, secure: secureCookies }),
        }
      : undefined;
    return redirect("/manage-news", { headers });
  } catch (error) {
    const { errors, status } = fieldFailureOf(error);
    const values = {
      title: String(form.title ?? ""),
      author_name: String(form.author_name ?? ""),
      content: String(form.content ?? ""),
      image_alt: String(form.image_alt ?? ""),
      image_decorative: form.image_decorative === "1",
      status: publicationOf(form.status),
      publish_date: String(form.publish_date ?? ""),
      publish_time: String(form.publish_time ?? ""),
    };
    return data({ errors, values }, { status });
  }
}

/** Create or edit a news post: title, rich content, author and image (SPEC §7 'News'), and its state. */
export default function EditNews({ loaderData, actionData }: Route.ComponentProps) {
  const { post } = loaderData;
  const edited = actionData && "values" in actionData ? actionData : undefined;
  const errors: Record<string, string[]> = edited?.errors ?? {};
  const values = edited?.values ?? {
    title: post?.title ?? "",
    author_name: post?.author_name ?? "",
    content: post?.content ?? "",
    image_alt: post?.image_alt ?? "",
    image_decorative: post?.image_decorative ?? false,
    status: post?.status ?? ("published" as const),
    publish_date: loaderData.publishOn?.date ?? "",
    publish_time: loaderData.publishOn?.time ?? "",
  };
  const saving = useNavigation().state === "submitting";
  return (
    <div className="max-w-4xl">
      <Breadcrumbs
        trail={[
          { label: "Manager", to: "/manager" },
          { label: "News", to: "/manage-news" },
        ]}
        current={post ? "Edit" : "New post"}
      />
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">{post ? "Edit post" : "New post"}</h1>
      {post ? (
        <p className="mt-2 text-sm text-slate-600">
          Address:{" "}
          <a href={postUrl(post.slug)} className="font-medium text-sea-600 hover:underline">
            {postUrl(post.slug)}
          </a>{" "}
          (stays the same when the title changes)
          {post.status === "draft"
            ? ". A draft: only admins see it; visitors get “not found” until it is published."
            : ""}
          {post.status === "scheduled" && loaderData.publishOn
            ? `. Scheduled: visitors get “not found” until ${loaderData.publishOn.date} ${loaderData.publishOn.time} (${loaderData.zone} time).`
            : ""}
        </p>
      ) : null}
      {loaderData.preview ? <PreviewLink {...loaderData.preview} noun="post" /> : null}
      {loaderData.restored ? (
        <Notice tone="success" className="mt-4">
          Restored: the texts are back as a new revision. The post's state did not change.
        </Notice>
      ) : null}
      {actionData && "error" in actionData && typeof actionData.error === "string" ? (
        <Notice tone="error" className="mt-4">
          {actionData.error}
        </Notice>
      ) : null}
      {Object.keys(errors).length > 0 ? (
        <p
          role="alert"
          className="mt-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          You have validation errors! Please fix them all
        </p>
      ) : null}
      {/* Keyed by the saved version: after a restore the fields show the restored texts. */}
      <Form
        key={loaderData.revisions[0]?.id}
        method="post"
        encType="multipart/form-data"
        className="mt-6 space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <TextField
          id="title"
          name="title"
          label="Title"
          defaultValue={values.title}
          error={errors.title?.[0]}
          required
          {...lengthLimit(postInputSchema.shape.title)}
        />
        <TextField
          id="author_name"
          name="author_name"
          label="Author"
          defaultValue={values.author_name}
          error={errors.author_name?.[0]}
          maxLength={120}
        />
        <div>
          <label htmlFor="image" className="field-label">
            Image
          </label>
          {post?.image ? (
            <img
              src={post.image}
              alt={post.image_alt ? `Current image: ${post.image_alt}` : "Current image"}
              width={post.image_width ?? 320}
              height={post.image_height ?? 180}
              className="mb-3 h-auto w-64 rounded-lg"
            />
          ) : null}
          <input
            id="image"
            name="image"
            type="file"
            accept={IMAGE_ACCEPT}
            aria-invalid={errors.image ? true : undefined}
            aria-describedby={errors.image ? "image-error" : "image-hint"}
            className="block text-sm file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-white"
          />
          <p id="image-hint" className="mt-1 text-xs text-slate-500">
            JPEG, PNG or WebP. {post?.image ? "A new file replaces the current image." : ""}
          </p>
          {errors.image ? (
            <p id="image-error" className="mt-1.5 text-sm text-red-700">
              {errors.image[0]}
            </p>
          ) : null}
          <div className="mt-4">
            <ImageTextFields
              id="image"
              altName="image_alt"
              decorativeName="image_decorative"
              defaultAlt={values.image_alt}
              defaultDecorative={values.image_decorative}
              error={errors.image_alt?.[0]}
            />
          </div>
        </div>
        <RichTextEditor name="content" label="Content" initialHtml={values.content} error={errors.content?.[0]} />
        <PublicationFields
          noun="post"
          state={values.status}
          date={values.publish_date}
          time={values.publish_time}
          zone={loaderData.zone}
          errors={errors}
        />
        <div className="flex flex-wrap justify-end gap-3">
          <Link to="/manage-news" className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : post ? "Save post" : "Create post"}
          </button>
        </div>
      </Form>
      {post?.image ? (
        <Form method="post" encType="multipart/form-data" className="mt-4">
          <input type="hidden" name="intent" value="remove-image" />
          <button type="submit" className="btn-outline text-red-700">
            <ImageOff className="h-4 w-4" aria-hidden="true" />
            Remove the image
          </button>
        </Form>
      ) : null}
      {post && post.status !== "published" && loaderData.announcement ? (
        <p className="mt-8 rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
          This post is not published yet: once it is on the site, send it to the members from here.
        </p>
      ) : post && loaderData.announcement ? (
        <AnnouncementPanel
          title={post.title}
          {...loaderData.announcement}
          result={(actionData as AnnouncementResult | undefined)?.announce}
        />
      ) : null}
      {post ? <RevisionsPanel revisions={loaderData.revisions} noun="post" /> : null}
      {post ? <AuditHistory rows={loaderData.history} /> : null}
    </div>
  );
}
