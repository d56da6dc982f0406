import { z } from "@hono/zod-openapi";
import {
  breadcrumbSchema,
  categorySchema,
  categoryTreeSchema,
  paperSchema,
  papersPageSchema,
  papersQuerySchema,
  sortOptionSchema,
} from "../../core/library/library.schema";
import { CATEGORY_NOT_FOUND } from "../../core/library/library.service";
import { oneSearch, SEARCH_GIVEN_TWICE } from "../../lib/pagination";
import { invalidInput } from "../../lib/validation";
import type { Runtime } from "../env";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, idParam, ok, viewerOf } from "./http";

const slugParams = z.object({ slug: z.string().openapi({ example: "policies" }) });
const ACCESS_NOTE =
  "Members see every active category; visitors only public ones (404 for the rest, as for an unknown slug); admins inactive ones too.";

/** SPEC §7 'Categories and papers (public)': the library as the caller may read it. */
export function libraryRoutes(runtime: Runtime) {
  const { services } = runtime;
  const library = services.library;
  const api = apiRouter();
  const tag = "Library";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/root-categories",
      access: access.public,
      tag,
      summary: "The library's top categories",
      description: "For members the root categories; for visitors the highest public categories.",
      response: { schema: success({ data: z.array(categorySchema) }) },
    },
    async (c) => ok(c, { data: await library.rootCategories(viewerOf(c)) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/getCategoryBySlug/:slug",
      access: access.public,
      tag,
      summary: "A category with its children, nested",
      description: ACCESS_NOTE,
      params: slugParams,
      response: { schema: success({ data: categoryTreeSchema }) },
      errors: [404],
    },
    async (c, { params }) => ok(c, { data: await library.categoryBySlug(params.slug, viewerOf(c)) }),
  );

  for (const [path, summary] of [
    ["/dashboard/getChildCategoryBySlug/:slug", "A category's children (its accordion)"],
    ["/dashboard/getTabCategoryBySlug/:slug", "A category's children (its tabs)"],
  ] as const) {
    declare(
      api,
      {
        method: "get",
        path,
        access: access.public,
        tag,
        summary,
        description: `Which of the two a category shows is its children_display. ${ACCESS_NOTE}`,
        params: slugParams,
        response: { schema: success({ data: z.array(categorySchema) }) },
        errors: [404],
      },
      async (c, { params }) => ok(c, { data: await library.childrenBySlug(params.slug, viewerOf(c)) }),
    );
  }

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/getBreadcrumbs/:slug",
      access: access.public,
      tag,
      summary: "The path to a category from the top of the library",
      description: `Each step with its name and slug, the category itself last. ${ACCESS_NOTE}`,
      params: slugParams,
      response: { schema: success({ data: z.array(breadcrumbSchema) }) },
      errors: [404],
    },
    async (c, { params }) => ok(c, { data: await library.breadcrumbs(params.slug, viewerOf(c)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/getPapersByCategory/:id",
      access: access.public,
      tag,
      summary: "A category's papers: searched, sorted, a page at a time",
      description:
        "`sortBy` is one of the category's `sort_options` (SPEC §9; another is a 422), its `default_sort` when left out. `search` finds words in the papers' fields and inside their documents; a hit inside a document comes with `match` (page and snippet). Load-more is a POST to `next_page_url` with the same body; a `search` added to the address as well is taken once when it is the same, a 422 when it differs.",
      params: z.object({ id: z.string().openapi({ example: "1" }) }),
      query: papersPageSchema,
      body: { schema: papersQuerySchema, encodings: ["json", "urlencoded", "multipart"] },
      response: {
        schema: pageAnswer(paperSchema).extend({
          sort: sortOptionSchema.shape.value.meta({ description: "The order the page is in." }),
        }),
      },
      errors: [404],
      cache: "content",
    },
    async (c, { query, body }) => {
      const id = idParam(c, CATEGORY_NOT_FOUND);
      // The search may come in the body (SPEC §7) and in the address too, if a client adds it to next_page_url.
      const search = oneSearch([query.search, body.search]);
      if (search === null) throw invalidInput({ search: [SEARCH_GIVEN_TWICE] });
      const page = await library.papersByCategory(id, { ...body, search }, query.page, viewerOf(c));
      const next =
        page.current_page < page.last_page
          ? `/api/dashboard/getPapersByCategory/${id}?page=${page.current_page + 1}`
          : null;
      return ok(c, { ...page, next_page_url: next });
    },
  );

  return api;
}
