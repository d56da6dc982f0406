import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  GROUP_NOT_FOUND,
  groupCreateSchema,
  groupDetailSchema,
  groupMemberAddSchema,
  groupPersonSchema,
  groupSummarySchema,
  groupUpdateSchema,
} from "../../core/groups/groups.schema";
import type { AppEnv, Runtime } from "../env";
import { idParams } from "./admin-news";
import { messageAnswer } from "./auth";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, idParam, ok } from "./http";

const slugParams = z.object({ slug: z.string().openapi({ example: "secom" }) });
const memberParams = idParams.extend({
  userId: z.string().openapi({ description: "The member's user id.", example: "7" }),
});
const groupAnswer = success({ group: groupSummarySchema });

/** Working groups (issue 36): the members' own groups, the admins' management, the chairs' members. */
export function groupsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "Working groups";
  const viewer = (c: Context<AppEnv>) => {
    const { user } = currentAuth(c);
    return { id: user.id, role: user.role.name };
  };

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/groups",
      access: access.member,
      tag,
      summary: "The caller's groups (every group for admins and editors)",
      response: { schema: success({ data: z.array(groupSummarySchema) }) },
    },
    async (c) => ok(c, { data: await services.groups.list(viewer(c)) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/groups/:slug",
      access: access.member,
      tag,
      summary: "A group: description, chairs and members",
      description: "404 for a member outside the group, as for a group that does not exist.",
      params: slugParams,
      response: { schema: success({ group: groupDetailSchema }) },
      errors: [404],
    },
    async (c, { params }) => ok(c, { group: await services.groups.detail(params.slug, viewer(c)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/groups",
      access: access.admin,
      tag,
      summary: "Create a group (name, description, chairs)",
      description: "`chair_ids`: user ids; each becomes a member and a chair. The slug is made from the name.",
      body: { schema: groupCreateSchema },
      response: { status: 201, schema: groupAnswer },
    },
    async (c, { body }) => ok(c, { group: await services.groups.create(body) }, 201),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/groups/:id",
      access: access.admin,
      tag,
      summary: "Change a group's name, description or chairs",
      description: "`chair_ids` replaces the chairs; a former chair stays a member. The slug does not change.",
      params: idParams,
      body: { schema: groupUpdateSchema },
      response: { schema: groupAnswer },
      errors: [404],
    },
    async (c, { body }) => ok(c, { group: await services.groups.update(idParam(c, GROUP_NOT_FOUND), body) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/groups/:id",
      access: access.admin,
      tag,
      summary: "Delete a group and its memberships",
      description:
        "Refused with 409 while library categories or meetings are for the group (the message names how many): give them another audience first.",
      params: idParams,
      response: { schema: messageAnswer },
      errors: [404, 409],
    },
    async (c) => {
      await services.groups.remove(idParam(c, GROUP_NOT_FOUND));
      return ok(c, { message: "The group is deleted." });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/groups/:id/members",
      access: access.member,
      tag,
      summary: "Add a person to a group (admins and the group's chairs)",
      description:
        "`user_id` or `email` of an active account with members' access (a current company's representative, an " +
        "individual member, an admin or editor); `user_id` is for admins, chairs add by `email`. 403 for a member of " +
        "the group who is not a chair (and for an editor); 404 for a member outside it; 409 when the person is in it already.",
      params: idParams,
      body: { schema: groupMemberAddSchema },
      response: { status: 201, schema: success({ member: groupPersonSchema }) },
      errors: [403, 404, 409],
    },
    async (c, { body }) =>
      ok(c, { member: await services.groups.addMember(idParam(c, GROUP_NOT_FOUND), body, viewer(c)) }, 201),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/groups/:id/members/:userId",
      access: access.member,
      tag,
      summary: "Remove a person from a group (admins; chairs for members who are not chairs)",
      params: memberParams,
      response: { schema: messageAnswer },
      errors: [403, 404],
    },
    async (c) => {
      await services.groups.removeMember(
        idParam(c, GROUP_NOT_FOUND),
        idParam(c, "This person is not in the group.", "userId"),
        viewer(c),
      );
      return ok(c, { message: "The person is removed from the group." });
    },
  );

  return api;
}
