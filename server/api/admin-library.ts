import { z } from "@hono/zod-openapi";
import {
  categoryCreateSchema,
  categoryMoveSchema,
  categoryTreeSchema,
  categoryUpdateSchema,
  paperInputSchema,
  paperSchema,
} from "../../core/library/library.schema";
import { CATEGORY_NOT_FOUND, PAPER_NOT_FOUND } from "../../core/library/library.service";
import { revisionSchema } from "../../core/revisions/revisions.schema";
import type { Runtime } from "../env";
import { fileField } from "./admin-media";
import { apiRouter, declare, success } from "./contract";
import { access, editsOf, idParam, ok, uploadedFile, uploadedImage } from "./http";

const idText = z.string().openapi({ description: "A positive integer id.", example: "1" });
const idParams = z.object({ id: idText });
const categoryBody = categoryUpdateSchema.extend({
  image: fileField
    .optional()
    .openapi({ description: "The category's picture (JPEG, PNG or WebP, at most 40 megapixels)." }),
});
const categoryCreateBody = categoryCreateSchema.extend({ image: categoryBody.shape.image });
const paperBody = paperInputSchema.extend({
  uploaded_file: fileField.optional().openapi({
    description:
      "PDF, docx, xlsx, pptx, XML, XSD or ZIP, checked by its content. On update, a new file makes the old one a revision.",
  }),
});

/** SPEC §7 'Categories and papers (admin)'. */
export function adminLibraryRoutes(runtime: Runtime) {
  const admin = runtime.services.libraryAdmin;
  const api = apiRouter();
  // Paper files may be as large as PAPER_MAX_BYTES: streamed to DATA_DIR/tmp, never held in memory.
  const spool = { dir: runtime.config.tmpDir, maxFileBytes: runtime.config.paperMaxBytes };
  const tag = "Library (admin)";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/papers-categories",
      access: access.editor,
      tag,
      summary: "The whole category tree, inactive categories included",
      response: { schema: success({ data: z.array(categoryTreeSchema) }) },
    },
    async (c) => ok(c, { data: await admin.tree() }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers-categories",
      access: access.editor,
      tag,
      summary: "Create a category",
      description: "A new last child of `parent_id`, or a new root without one. Its slug comes from the name.",
      body: { schema: categoryCreateBody },
      response: { status: 201, schema: success({ category: categoryTreeSchema }) },
      errors: [507],
    },
    async (c, { body, raw }) => {
      const category = await admin.createCategory(body, (await uploadedImage(raw)) ?? null);
      return ok(c, { category }, 201);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers-categories/:id",
      access: access.editor,
      tag,
      summary: "Update a category",
      description: "Every field but the parent is replaced (moving is `…/move`); a new image replaces the old.",
      params: idParams,
      body: { schema: categoryBody },
      response: { schema: success({ category: categoryTreeSchema }) },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const id = idParam(c, CATEGORY_NOT_FOUND);
      return ok(c, { category: await admin.updateCategory(id, body, (await uploadedImage(raw)) ?? null) });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers-categories/:id/move",
      access: access.editor,
      tag,
      summary: "Move a category or change its place among its siblings",
      description:
        "`parent_id` (empty for the top level) and `position` (0 first; left out: last). Never under itself or its own sub-categories.",
      params: idParams,
      body: { schema: categoryMoveSchema },
      response: { schema: success({ category: categoryTreeSchema }) },
      errors: [404],
    },
    async (c, { body }) => ok(c, { category: await admin.moveCategory(idParam(c, CATEGORY_NOT_FOUND), body) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers-categories-delete/:id",
      access: access.editor,
      tag,
      summary: "Delete an empty category",
      description: "Refused (422) while it has sub-categories or papers.",
      params: idParams,
      response: { schema: success({}) },
      errors: [404, 422],
    },
    async (c) => {
      await admin.deleteCategory(idParam(c, CATEGORY_NOT_FOUND));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/papers/:id",
      access: access.editor,
      tag,
      summary: "A paper with its revisions",
      params: idParams,
      response: { schema: success({ paper: paperSchema }) },
      errors: [404],
    },
    async (c) => ok(c, { paper: await runtime.services.library.paper(idParam(c, PAPER_NOT_FOUND)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers",
      access: access.chair,
      tag,
      summary: "Create a paper",
      description:
        "The file's text is read into the site search, page by page. Admins and editors anywhere; a working group's chairs in their group's categories (403 with why elsewhere).",
      body: { schema: paperBody, encodings: ["json", "urlencoded", "multipart"], spool },
      response: { status: 201, schema: success({ paper: paperSchema }) },
      errors: [507],
    },
    async (c, { body, raw }) =>
      ok(c, { paper: await admin.createPaper(body, uploadedFile(raw, "uploaded_file"), editsOf(c)) }, 201),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/papers/:id",
      access: access.chair,
      tag,
      summary: "Update a paper",
      description:
        "Every field is replaced. A new `uploaded_file` becomes the current file at the same address; the one it replaces is kept as a revision with the labels it had.",
      params: idParams,
      body: { schema: paperBody, encodings: ["json", "urlencoded", "multipart"], spool },
      response: { schema: success({ paper: paperSchema }) },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const id = idParam(c, PAPER_NOT_FOUND);
      return ok(c, { paper: await admin.updatePaper(id, body, uploadedFile(raw, "uploaded_file"), editsOf(c)) });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/papers/:id",
      access: access.chair,
      tag,
      summary: "Delete a paper with its revisions and files",
      params: idParams,
      response: { schema: success({}) },
      errors: [404],
    },
    async (c) => {
      await admin.deletePaper(idParam(c, PAPER_NOT_FOUND), editsOf(c));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/papers/:id/revisions/:revisionId",
      access: access.chair,
      tag,
      summary: "Delete an earlier file of a paper",
      params: z.object({ id: idText, revisionId: idText }),
      response: { schema: success({ paper: paperSchema }) },
      errors: [404],
    },
    async (c) => {
      const paper = await admin.deleteRevision(
        idParam(c, PAPER_NOT_FOUND),
        idParam(c, "Revision not found.", "revisionId"),
        editsOf(c),
      );
      return ok(c, { paper });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/papers-categories/:id/revisions",
      access: access.editor,
      tag,
      summary: "A category's revisions",
      description:
        "Every save keeps the category's texts (decision 0073): newest first (the latest 50), each with who saved it, " +
        "when, the fields as saved, and what changed from the revision before it, word by word.",
      params: idParams,
      response: { schema: success({ data: z.array(revisionSchema) }) },
      errors: [404],
    },
    async (c) => ok(c, { data: await admin.categoryRevisions(idParam(c, CATEGORY_NOT_FOUND)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/papers-categories/:id/revisions/:revisionId/restore",
      access: access.editor,
      tag,
      summary: "Restore a category's revision",
      description:
        "Puts the revision's texts back as a new save (a new revision); the category keeps its place, visibility and image.",
      params: idParams.extend({ revisionId: idText }),
      response: { schema: success({ category: categoryTreeSchema }) },
      errors: [404],
    },
    async (c) => {
      const id = idParam(c, CATEGORY_NOT_FOUND);
      const revisionId = idParam(c, "Revision not found.", "revisionId");
      return ok(c, { category: await admin.restoreCategoryRevision(id, revisionId) });
    },
  );

  return api;
}
