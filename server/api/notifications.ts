import {
  followSchema,
  preferencesSchema,
  preferencesUpdateSchema,
  unfollowSchema,
} from "../../core/notifications/notifications.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, ok, viewerOf } from "./http";

const answer = success(preferencesSchema.shape);

/** Issue 33: what a signed-in member follows and how they hear of it. */
export function notificationsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "Notifications";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/notifications",
      access: access.member,
      tag,
      summary: "What one follows and how one hears of it",
      description:
        "The library categories (with their sub-categories), the news and the meetings one follows, each delivered " +
        "`instant` (within minutes, batched) or in the `digest`; how often the digest comes; whether announcements " +
        "come by e-mail. Someone who has chosen nothing has the defaults: news and meetings in the weekly digest. " +
        "Instant notices leave within NOTIFY_BATCH_SECONDS (default 300), several together in one mail; the daily " +
        "digest each morning and the weekly one on Monday, in the site's time zone.",
      response: { schema: answer },
    },
    async (c) => ok(c, await services.notifications.preferences(currentAuth(c).user.id)),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/notifications",
      access: access.member,
      tag,
      summary: "Change what one follows and how one hears of it",
      description:
        "Changes the fields sent: `follows` replaces the whole list (each thing once; only categories one may see, " +
        "422 on `follows.{i}.id` otherwise), `digest` and `announcements` their values.",
      body: { schema: preferencesUpdateSchema },
      response: { schema: answer },
    },
    async (c, { body }) => ok(c, await services.notifications.update(currentAuth(c).user.id, viewerOf(c), body)),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/notifications/follow",
      access: access.member,
      tag,
      summary: "Follow a category, the news or the meetings",
      description:
        "Follows one thing (`kind`, `id` for a category, `delivery`), or changes its delivery when it is followed " +
        "already. A category one may not see is a 422 on `id`.",
      body: { schema: followSchema },
      response: { schema: answer },
    },
    async (c, { body }) => ok(c, await services.notifications.follow(currentAuth(c).user.id, viewerOf(c), body)),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/notifications/follow",
      access: access.member,
      tag,
      summary: "Stop following a category, the news or the meetings",
      description: "A thing one does not follow is a 404.",
      body: { schema: unfollowSchema },
      response: { schema: answer },
      errors: [404],
    },
    async (c, { body }) => ok(c, await services.notifications.unfollow(currentAuth(c).user.id, body)),
  );

  return api;
}
