import { PDFDocument, StandardFonts } from "pdf-lib";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { action as treeAction, loader as treeLoader } from "../../app/routes/library/manage-library";
import { action as papersAction, loader as papersLoader } from "../../app/routes/library/manage-papers";
import type { Authenticated } from "../../core/auth/auth.service";
import type { RequestContext } from "../../core/request-context";
import { createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * The library admin's page actions as a browser without JavaScript posts them (plain forms,
 * multipart with files), over a real database and real private storage: done is a redirect
 * back with a flash notice; refused is the page's data with the field errors and what was
 * typed. A fetcher's post (`_fetch=1`) gets its answer as data instead of a redirect.
 */
let t: TestContext;
let context: RouterContextProvider;

async function makePdf(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, font });
  return new Uint8Array(await doc.save());
}

beforeAll(async () => {
  t = await createTestContext();
  const admin = await signIn(t.runtime.services, "admin");
  const auth = (await t.runtime.services.auth.authenticate(admin.token)) as Authenticated;
  context = new RouterContextProvider();
  const value: RequestContext = {
    services: t.runtime.services,
    auth,
    sessionToken: admin.token,
    client: { ip: "192.0.2.44", userAgent: "vitest" },
    nonce: "",
    requestId: "library-admin-1",
    secureCookies: false,
    origin: ORIGIN,
    logger: t.runtime.logger,
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  };
  context.set(requestContext, value);
});
afterAll(async () => t.close());

type Answer = { data: Record<string, unknown>; init: { status?: number } | null };

function post(path: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return new Request(`${ORIGIN}${path}`, { method: "POST", body: form, headers: { origin: ORIGIN } });
}

async function onTree(fields: Record<string, string | Blob>) {
  const request = post("/manager/library", fields);
  return (await treeAction({ request, context, params: {}, url: new URL(request.url) } as never)) as unknown;
}

async function onPapers(categoryId: number, fields: Record<string, string | Blob>) {
  const request = post(`/manager/library/${categoryId}`, fields);
  return (await papersAction({
    request,
    context,
    params: { id: String(categoryId) },
    url: new URL(request.url),
  } as never)) as unknown;
}

const redirected = (answer: unknown) => {
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  expect(response.status).toBe(302);
  expect(response.headers.get("set-cookie")).toMatch(/^flash=/);
  return response.headers.get("location") ?? "";
};
const refused = (answer: unknown) => answer as Answer;
const idIn = (location: string, prefix: string) => Number(new RegExp(`#${prefix}-(\\d+)$`).exec(location)?.[1]);

describe("the category tree without JavaScript", () => {
  it("creates, edits, reorders, moves and deletes categories, and says why a delete is refused", async () => {
    const rootAt = redirected(
      await onTree({ intent: "create", parent_id: "", name: "Standards", is_public: "public", is_active: "1" }),
    );
    expect(rootAt).toMatch(/^\/manager\/library#cat-\d+$/);
    const root = idIn(rootAt, "cat");
    const first = idIn(
      redirected(
        await onTree({ intent: "create", parent_id: String(root), name: "Upcoming", view_type: "upcoming-standards" }),
      ),
      "cat",
    );
    // A fetcher's post is answered as data: the tree is read again in place.
    const fetched = (await onTree({ intent: "create", parent_id: String(root), name: "Published", _fetch: "1" })) as {
      done: boolean;
      message: string;
    };
    expect(fetched).toMatchObject({ done: true, message: "Created “Published”." });
    const tree = await t.runtime.services.libraryAdmin.tree();
    const standards = tree.find((c) => c.id === root);
    expect(standards?.children.map((c) => c.name)).toEqual(["Upcoming", "Published"]);
    expect(standards?.children[0]).toMatchObject({ view_type: "upcoming-standards", is_public: true });
    const second = standards?.children[1].id as number;

    // Field errors beside the fields, with what was typed.
    const bad = refused(
      await onTree({ intent: "update", id: String(first), name: "  ", title: "Kept title", view_type: "nonsense" }),
    );
    expect(bad.init?.status).toBe(422);
    expect(bad.data.row).toBe(`cat-${first}`);
    expect((bad.data.errors as Record<string, string[]>).name).toEqual(["The name field is required."]);
    expect((bad.data.errors as Record<string, string[]>).view_type?.[0]).toMatch(/view type must be one of/);
    expect((bad.data.values as Record<string, string>).title).toBe("Kept title");

    // Unchecked "Active" (the hidden 0 alone) and members-only.
    redirected(
      await onTree({
        intent: "update",
        id: String(first),
        name: "Upcoming standards",
        is_active: "0",
        is_public: "members",
      }),
    );
    const updated = await t.runtime.services.libraryAdmin.category(first);
    expect(updated).toMatchObject({
      name: "Upcoming standards",
      is_active: false,
      is_public: false,
      public_setting: "members",
    });

    // Down one place, then under its sibling, then never under itself.
    redirected(await onTree({ intent: "move", id: String(first), parent_id: String(root), position: "1" }));
    expect((await t.runtime.services.libraryAdmin.category(root)).children.map((c) => c.id)).toEqual([second, first]);
    redirected(await onTree({ intent: "move", id: String(first), parent_id: String(second) }));
    expect((await t.runtime.services.libraryAdmin.category(first)).parent_id).toBe(second);
    const loop = refused(await onTree({ intent: "move", id: String(second), parent_id: String(first) }));
    expect(loop.init?.status).toBe(422);
    expect((loop.data.errors as Record<string, string[]>).parent_id?.[0]).toMatch(/cannot be moved under itself/);

    // Refused while it has sub-categories: one message for the dialog.
    const busy = refused(await onTree({ intent: "delete", id: String(second) }));
    expect(busy.init?.status).toBe(422);
    expect(busy.data.error).toBe("This category has sub-categories: move or delete them first.");

    expect(redirected(await onTree({ intent: "delete", id: String(first) }))).toBe("/manager/library");
    redirected(await onTree({ intent: "delete", id: String(second) }));
    const gone = refused(await onTree({ intent: "delete", id: String(second) }));
    expect(gone.init?.status).toBe(404);
    expect(gone.data.error).toBe("Category not found.");
    redirected(await onTree({ intent: "delete", id: String(root) }));
    expect(await t.runtime.services.libraryAdmin.tree()).toEqual([]);
  });

  it("opens forms from the address and answers 400 to an unknown intent", async () => {
    const request = new Request(`${ORIGIN}/manager/library?edit=cat-3&add=root`);
    const answer = (await treeLoader({ request, context, params: {}, url: new URL(request.url) } as never)) as Answer;
    expect(answer.data.open).toEqual({ edit: "cat-3", add: "root", remove: null });
    await expect(onTree({ intent: "launch" })).rejects.toMatchObject({ init: { status: 400 } });
  });
});

describe("a category's papers without JavaScript", () => {
  it("creates a paper with a PDF, replaces the file (the old one becomes a revision), deletes the revision and the paper", async () => {
    const category = await t.runtime.services.libraryAdmin.createCategory(
      {
        name: "Technical papers",
        title: null,
        title_description: null,
        description: null,
        content: null,
        view_type: null,
        is_active: true,
        is_public: "members",
        parent_id: null,
      },
      null,
    );
    const pdf = new File([await makePdf("Radar performance, first edition")], "radar.pdf", { type: "application/pdf" });
    const createdAt = redirected(
      await onPapers(category.id, {
        intent: "save",
        papers_category_id: String(category.id),
        name: "Radar performance",
        number: "TP-2031-01",
        revision: "A",
        date: "2031-02-01",
        uploaded_file: pdf,
      }),
    );
    expect(createdAt).toMatch(new RegExp(`^/manager/library/${category.id}#paper-\\d+$`));
    const paperId = idIn(createdAt, "paper");
    const created = await t.runtime.services.library.paper(paperId);
    expect(created).toMatchObject({ name: "Radar performance", number: "TP-2031-01", file: { label: "PDF" } });

    // Field errors: the date, and a file refused by its bytes (415) at the file field.
    const badDate = refused(
      await onPapers(category.id, {
        intent: "save",
        id: String(paperId),
        papers_category_id: String(category.id),
        name: "Radar performance",
        date: "2031-02-30",
      }),
    );
    expect(badDate.init?.status).toBe(422);
    expect((badDate.data.errors as Record<string, string[]>).date).toEqual([
      "The date must be a date such as 2026-11-22.",
    ]);
    expect((badDate.data.values as Record<string, string>).name).toBe("Radar performance");
    const notPdf = refused(
      await onPapers(category.id, {
        intent: "save",
        papers_category_id: String(category.id),
        name: "Not a paper",
        uploaded_file: new File(["just words, no document"], "fake.pdf", { type: "application/pdf" }),
      }),
    );
    expect(notPdf.init?.status).toBe(415);
    expect((notPdf.data.errors as Record<string, string[]>).uploaded_file?.[0]).toMatch(/must be a PDF/);

    const second = new File([await makePdf("Radar performance, second edition")], "radar-b.pdf", {
      type: "application/pdf",
    });
    redirected(
      await onPapers(category.id, {
        intent: "save",
        id: String(paperId),
        papers_category_id: String(category.id),
        name: "Radar performance",
        number: "TP-2031-01",
        revision: "B",
        uploaded_file: second,
      }),
    );
    const replaced = await t.runtime.services.library.paper(paperId);
    expect(replaced.revision).toBe("B");
    expect(replaced.revisions).toHaveLength(1);
    expect(replaced.revisions[0]).toMatchObject({ revision: "A", date: "2031-02-01" });

    // The list, as the page's loader reads it, shows the paper with its earlier file.
    const request = new Request(`${ORIGIN}/manager/library/${category.id}?paper=${paperId}`);
    const page = (await papersLoader({
      request,
      context,
      params: { id: String(category.id) },
      url: new URL(request.url),
    } as never)) as Answer;
    expect(page.data).toMatchObject({ form: "edit", paper: { id: paperId }, page: { total: 1 } });

    const revisionId = replaced.revisions[0].id;
    expect(
      redirected(
        await onPapers(category.id, { intent: "delete-revision", id: String(paperId), revision: String(revisionId) }),
      ),
    ).toBe(`/manager/library/${category.id}#paper-${paperId}`);
    expect((await t.runtime.services.library.paper(paperId)).revisions).toEqual([]);

    // A category with papers cannot be deleted; once the paper is gone, it can.
    const busy = refused(await onTree({ intent: "delete", id: String(category.id) }));
    expect(busy.data.error).toBe("This category has papers: move or delete them first.");
    expect(redirected(await onPapers(category.id, { intent: "delete", id: String(paperId) }))).toBe(
      `/manager/library/${category.id}`,
    );
    await expect(t.runtime.services.library.paper(paperId)).rejects.toMatchObject({ code: "not_found" });
    redirected(await onTree({ intent: "delete", id: String(category.id) }));
  });

  it("answers 404 for a category that does not exist", async () => {
    const request = new Request(`${ORIGIN}/manager/library/999999`);
    await expect(
      papersLoader({ request, context, params: { id: "999999" }, url: new URL(request.url) } as never),
    ).rejects.toMatchObject({ init: { status: 404 } });
  });
});
