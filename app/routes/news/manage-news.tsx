import { FilePenLine } from "lucide-react";
import { data, Link } from "react-router";
import { adminListSchema } from "../../../core/news/news.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { AdminList, type FilterSelects, filterParams } from "../../components/admin/admin-list";
import { PUBLICATION_FILTER, PublicationBadge } from "../../components/admin/publication-fields";
import { formatDate } from "../../components/news/post-card";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { getRequestContext } from "../../context";
import { takeFlash } from "../../lib/flash.server";
import { actionRefusal, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-news";

export const meta: Route.MetaFunction = () => [{ title: "News · Manager" }];

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  try {
    const page = await services.news.adminList(
      parseOrThrow(adminListSchema, {
        search: url.searchParams.get("search"),
        page: url.searchParams.get("page") ?? undefined,
        status: url.searchParams.get("status"),
      }),
    );
    // The "Saved …" notice of the editor's redirect: from a signed flash cookie, never from the URL.
    const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
    return data(
      {
        page,
        search: url.searchParams.get("search") ?? "",
        status: url.searchParams.get("status") ?? "",
        notice: flash.message,
      },
      { headers: flash.headers },
    );
  } catch (error) {
    if (isAppError(error) && error.code === "validation")
      throw data("That page of the list does not exist.", { status: 400 });
    throw error;
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.intent !== "delete") throw data("Unknown action.", { status: 400 });
  try {
    const { slug } = await getRequestContext(context).services.news.remove(formId(form));
    return { deleted: slug };
  } catch (error) {
    return actionRefusal(error);
  }
}

const SELECTS: FilterSelects = { status: PUBLICATION_FILTER };

/** SPEC §2 'Admin lists for … news with search': the admin's news list with load-more, drafts marked. */
export default function ManageNews({ loaderData }: Route.ComponentProps) {
  const { page, search, status, notice } = loaderData;
  return (
    <AdminList
      title="News"
      newLink={{ to: "/manage-news/new", label: "New post" }}
      notice={notice}
      search={{ id: "manage-news", label: "Search posts" }}
      filters={{
        label: "Filter the posts",
        selects: SELECTS,
        grid: "sm:grid-cols-[1fr_12rem_auto]",
      }}
      params={filterParams({ search, status })}
      page={page}
      noun={["post", "posts"]}
      empty={{
        filtered: search ? `No post matches “${search}”.` : "No post is in this state.",
        unfiltered: "No posts yet.",
      }}
      layout="rows"
      path="/manage-news"
      paging="load-more"
      renderRow={(post) => (
        <li className="flex items-center gap-4 px-4 py-3">
          <div className="hidden h-12 w-20 shrink-0 overflow-hidden rounded bg-navy-100 sm:block">
            {post.image ? (
              <img
                src={post.image}
                alt={post.image_alt}
                width={80}
                height={48}
                className="h-full w-full object-cover"
              />
            ) : null}
          </div>
          <div className="min-w-0 flex-1">
            <p className="font-semibold break-words text-navy-900 sm:truncate">
              <PublicationBadge status={post.status} />
              {post.title}
            </p>
            <p className="text-xs text-slate-600">
              {formatDate(post.published_at)}
              {post.author_name ? ` · ${post.author_name}` : ""}
            </p>
            {post.image && !post.image_alt && !post.image_decorative ? (
              <p className="text-xs font-semibold text-amber-800">Its image needs alt text</p>
            ) : null}
          </div>
          <Link to={`/manage-news/${post.id}/edit`} className="btn-outline py-1.5">
            <FilePenLine className="h-4 w-4" aria-hidden="true" />
            Edit<span className="sr-only"> {post.title}</span>
          </Link>
          <ConfirmDelete
            label={`Delete ${post.title}`}
            title="Delete this post?"
            description={`“${post.title}” and its image will be removed from the site. This cannot be undone.`}
            fields={{ intent: "delete", id: post.id }}
          />
        </li>
      )}
    />
  );
}
