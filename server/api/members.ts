import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { InvitationContext } from "../../core/accounts/invitation.service";
import {
  adminCompanySchema,
  COMPANY_NOT_FOUND,
  companiesQuerySchema,
  companyCreateSchema,
  companyImportBodySchema,
  companyImportReportSchema,
  companyProfileSchema,
  companyUpdateSchema,
  memberCompanySchema,
  membersQuerySchema,
  ownCompanySchema,
  REPRESENTATIVE_NOT_FOUND,
  representativeChangeSchema,
  representativeInviteSchema,
  representativeSchema,
} from "../../core/members/members.schema";
import { contentDisposition } from "../../lib/content-disposition";
import type { AppEnv, Runtime } from "../env";
import { fileField } from "./admin-media";
import { idParams } from "./admin-news";
import { messageAnswer } from "./auth";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, currentAuth, idParam, ok, uploadedFile, uploadedImage } from "./http";

const slugParams = z.object({ slug: z.string().openapi({ description: "The company's slug.", example: "nordhavn" }) });
const representativeParams = idParams.extend({
  userId: z.string().openapi({ description: "The representative's user id.", example: "2" }),
});
const userParams = z.object({
  userId: z.string().openapi({ description: "The colleague's user id.", example: "2" }),
});
const logoField = fileField.optional().openapi({ description: "The logo: a JPEG, PNG or WebP image (multipart)." });
const companyAnswer = success({ company: adminCompanySchema });
const addedAnswer = success({
  representative: representativeSchema,
  invited: z.boolean().openapi({
    description: "true: a new account was invited (mail sent); false: an existing account was linked (and told).",
  }),
});

/** A list's next address: the page after this one, with the filters it was asked with. */
function nextPage(path: string, page: { current_page: number; last_page: number }, filters: Record<string, unknown>) {
  if (page.current_page >= page.last_page) return null;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "" || value === false) continue;
    params.set(key, value === true ? "1" : String(value));
  }
  params.set("page", String(page.current_page + 1));
  return `${path}?${params}`;
}

/**
 * Membership (issue 31): the public directory, the secretariat's companies and representatives,
 * and a representative's own company. The rules live in core/members/members.service.ts.
 */
export function membersRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const { members } = services;
  const api = apiRouter();
  const invitation = (c: Context<AppEnv>): InvitationContext => ({
    origin: config.baseUrl.origin,
    inviter: currentAuth(c).user,
  });
  const companyId = (c: Context<AppEnv>) => idParam(c, COMPANY_NOT_FOUND);
  const userId = (c: Context<AppEnv>) => idParam(c, REPRESENTATIVE_NOT_FOUND, "userId");

  // ── Public ──────────────────────────────────────────────────────────────
  const tag = "Member companies";
  declare(
    api,
    {
      method: "get",
      path: "/members",
      access: access.public,
      tag,
      summary: "The current member companies (search, country, type, product, page)",
      description:
        "Only current companies (active, and renews_on none or within the grace period); by name. `search` looks in names and products, `product` is one product tag (any case), `country` an ISO 3166-1 alpha-2 code.",
      query: membersQuerySchema,
      response: { schema: pageAnswer(memberCompanySchema) },
      cache: "content",
    },
    async (c, { query }) => {
      const page = await members.directory(query);
      const { page: _, ...filters } = query;
      return ok(c, { ...page, next_page_url: nextPage("/api/members", page, filters) });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/members/:slug",
      access: access.public,
      tag,
      summary: "A current member company by its slug",
      description: "A lapsed, suspended or left company answers 404, as one that never existed.",
      params: slugParams,
      response: { schema: success({ company: memberCompanySchema }) },
      errors: [404],
      cache: "content",
    },
    async (c, { params }) => ok(c, { company: await members.bySlug(params.slug) }),
  );

  // ── The secretariat ─────────────────────────────────────────────────────
  const admin = "Member companies (admin)";
  declare(
    api,
    {
      method: "get",
      path: "/dashboard/companies",
      access: access.admin,
      tag: admin,
      summary: "List member companies (search, status, current, type, renewals due, page)",
      description:
        "`search` looks in names, countries (by name or code) and products. Load-more is a GET of `next_page_url`, which keeps the filters.",
      query: companiesQuerySchema,
      response: { schema: pageAnswer(adminCompanySchema) },
      // Kept per content version as the papers' admin search is: every change to a company or to
      // its representatives moves the version (an admin's by contentChanges, a primary contact's below).
      cache: "content",
    },
    async (c, { query }) => {
      const page = await members.adminList(query);
      const { page: _, ...filters } = query;
      return ok(c, { ...page, next_page_url: nextPage("/api/dashboard/companies", page, filters) });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/companies",
      access: access.admin,
      tag: admin,
      summary: "Create a member company",
      description:
        "name and country are required; membership_type defaults to full, status to active, member_since to today. `products`: a list, or one text with commas.",
      body: { schema: companyCreateSchema.extend({ logo: logoField }) },
      response: { status: 201, schema: companyAnswer },
      errors: [409, 507],
    },
    async (c, { body, raw }) => ok(c, { company: await members.create(body, await uploadedImage(raw, "logo")) }, 201),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/companies/export",
      access: access.admin,
      tag: admin,
      summary: "Export the member companies as CSV (the list's filters, every page)",
      description:
        "One row a company: the columns the import reads (Name, Country, Website, Membership type, Status, Member since, Renews on, Seats, Products, Description) and, for reading, Country name, Current, Seats used and Representatives (names and e-mails, primary contacts marked). UTF-8 with a byte-order mark; a cell a spreadsheet would run as a formula starts with a quote mark.",
      query: companiesQuerySchema.omit({ page: true }),
      response: { schema: z.string(), mediaType: "text/csv", description: "The companies, one a row." },
    },
    async (c, { query }) =>
      c.body(await services.companiesCsv.exportCsv(query), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition("attachment", "member-companies.csv"),
        "Cache-Control": "no-store",
      }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/companies/import",
      access: access.admin,
      tag: admin,
      summary: "Import member companies from CSV: a dry run, then apply",
      description:
        "The CSV as a multipart `file` or as the text `csv`; its first row names the columns (as the export's: Name is required, the others optional; a country by code or English name). Each row creates the company of its name or changes the one that has it (any case); the columns present are the truth, and an empty cell clears what may be empty (website, renews on, seats, products, description). Logos and representatives are not imported. Without `apply` it is a dry run that changes nothing and reports row by row what applying would do; with `apply=true` the rows that can be are applied in one transaction and the others refused, each with its reasons.",
      body: { schema: companyImportBodySchema.extend({ file: fileField.optional() }) },
      response: { schema: success(companyImportReportSchema.shape) },
      errors: [409, 413],
    },
    async (c, { body, raw }) => {
      const file = uploadedFile(raw, "file");
      const source = file ? new Uint8Array(await file.arrayBuffer()) : (body.csv ?? null);
      return ok(c, await services.companiesCsv.importCsv(source, body.apply));
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/companies/:id",
      access: access.admin,
      tag: admin,
      summary: "A member company",
      params: idParams,
      response: { schema: companyAnswer },
      errors: [404],
    },
    async (c) => ok(c, { company: await members.get(companyId(c)) }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/companies/:id",
      access: access.admin,
      tag: admin,
      summary: "Change a member company",
      description:
        "Only the fields sent change; website, renews_on and seats sent empty (or null) are cleared; `remove_logo` removes the logo. The slug stays.",
      params: idParams,
      body: { schema: companyUpdateSchema.extend({ logo: logoField }) },
      response: { schema: companyAnswer },
      errors: [404, 507],
    },
    async (c, { body, raw }) =>
      ok(c, { company: await members.update(companyId(c), body, await uploadedImage(raw, "logo")) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/companies/:id",
      access: access.admin,
      tag: admin,
      summary: "Delete a member company without representatives",
      description:
        "A company with representatives is refused (422): remove them first, or end the membership with status left.",
      params: idParams,
      response: { schema: success({ slug: z.string().openapi({ description: "The deleted company's slug." }) }) },
      errors: [404],
    },
    async (c) => ok(c, await members.remove(companyId(c))),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/companies/:id/renew",
      access: access.admin,
      tag: admin,
      summary: "Record a renewal: renews_on moves on by one year",
      description: "From renews_on (the anniversary is kept); a company without one gets a year from today.",
      params: idParams,
      response: { schema: companyAnswer },
      errors: [404],
    },
    async (c) => ok(c, { company: await members.renew(companyId(c)) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/companies/:id/representatives",
      access: access.admin,
      tag: admin,
      summary: "A company's representatives",
      params: idParams,
      response: { schema: success({ data: z.array(representativeSchema) }) },
      errors: [404],
    },
    async (c) => ok(c, { data: await members.representatives(companyId(c)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/companies/:id/representatives",
      access: access.admin,
      tag: admin,
      summary: "Add a representative: invite them, or link their existing account",
      description:
        "Past the seats: 422 'This company has no free seat.'. An account that represents another company, an admin's or a deactivated one: 409.",
      params: idParams,
      body: { schema: representativeInviteSchema },
      response: { status: 201, schema: addedAnswer },
      errors: [404, 409],
    },
    async (c, { body }) => ok(c, await members.addRepresentative(companyId(c), body, invitation(c)), 201),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/companies/:id/representatives/:userId",
      access: access.admin,
      tag: admin,
      summary: "Make a representative a primary contact, or not",
      params: representativeParams,
      body: { schema: representativeChangeSchema },
      response: { schema: success({ representative: representativeSchema }) },
      errors: [404],
    },
    async (c, { body }) => ok(c, { representative: await members.changeRepresentative(companyId(c), userId(c), body) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/companies/:id/representatives/:userId",
      access: access.admin,
      tag: admin,
      summary: "Remove a representative (the account stays, without a company)",
      params: representativeParams,
      response: { schema: messageAnswer },
      errors: [404],
    },
    async (c) => {
      await members.removeRepresentative(companyId(c), userId(c));
      return ok(c, { message: "The representative is removed from the company." });
    },
  );

  // ── A representative's own company ──────────────────────────────────────
  const own = "Own company (representatives)";
  declare(
    api,
    {
      method: "get",
      path: "/dashboard/company",
      access: access.member,
      tag: own,
      summary: "The company one represents, with its representatives",
      description: "404 for a user who represents no company.",
      response: { schema: success({ company: ownCompanySchema }) },
      errors: [404],
    },
    async (c) => ok(c, { company: await members.ownCompany(currentAuth(c).user.id) }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/company",
      access: access.member,
      tag: own,
      summary: "Change one's company's public profile (primary contacts)",
      description:
        "description, website, logo and products only; the name, type, status and dates are the secretariat's. A representative who is not a primary contact gets 403.",
      body: { schema: companyProfileSchema.extend({ logo: logoField }) },
      response: { schema: success({ company: ownCompanySchema }) },
      errors: [403, 404, 507],
    },
    async (c, { body, raw }) => {
      const company = await members.updateOwnProfile(currentAuth(c).user.id, body, await uploadedImage(raw, "logo"));
      // The directory shows the profile: cached pages move on as after an admin's change.
      c.set("publishes", true);
      return ok(c, { company });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/company/representatives",
      access: access.member,
      tag: own,
      summary: "Invite a colleague, within the seats (primary contacts)",
      body: { schema: representativeInviteSchema },
      response: { status: 201, schema: addedAnswer },
      errors: [403, 404, 409],
    },
    async (c, { body }) => {
      const added = await members.inviteColleague(currentAuth(c).user.id, body, invitation(c));
      // The secretariat's list counts the seats taken: its cached answers move on.
      c.set("publishes", true);
      return ok(c, added, 201);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/company/representatives/:userId",
      access: access.member,
      tag: own,
      summary: "Hand a colleague the primary contact role, or take it back (primary contacts)",
      description: "The company's last primary contact cannot give up the role (422).",
      params: userParams,
      body: { schema: representativeChangeSchema },
      response: { schema: success({ representative: representativeSchema }) },
      errors: [403, 404],
    },
    async (c, { body }) => {
      const representative = await members.changeColleague(currentAuth(c).user.id, userId(c), body);
      c.set("publishes", true);
      return ok(c, { representative });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/company/representatives/:userId",
      access: access.member,
      tag: own,
      summary: "Remove a colleague from the company (primary contacts)",
      description:
        "A representative who is not a primary contact gets 403; another company's user 404. The company's last primary contact cannot remove themselves (422).",
      params: userParams,
      response: { schema: messageAnswer },
      errors: [403, 404],
    },
    async (c) => {
      await members.removeColleague(currentAuth(c).user.id, userId(c));
      c.set("publishes", true);
      return ok(c, { message: "The colleague is removed from the company." });
    },
  );

  return api;
}
