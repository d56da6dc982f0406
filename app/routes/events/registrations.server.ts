import { data } from "react-router";
import { managesContent } from "../../../core/access/access";
import type { RegistrationActor } from "../../../core/join/registrations.service";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { getRequestContext } from "../../context";

/** The meeting a registrations screen or file is about; 404 for an id that is no meeting. */
export async function meetingOf(context: Parameters<typeof getRequestContext>[0], id: string | undefined) {
  const meetingId = parseId(id);
  if (meetingId === null) throw data("This page could not be found", { status: 404 });
  try {
    return await getRequestContext(context).services.meetingsAdmin.get(meetingId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

/** Who changes a registration from these screens: the signed-in admin or editor (the admin layout's guard let them in). */
export function actorOf(context: Parameters<typeof getRequestContext>[0]): RegistrationActor {
  const user = getRequestContext(context).auth?.user;
  if (!user || !managesContent(user.role.name)) throw data("This action is unauthorized.", { status: 403 });
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
}

/** A refusal of the registrations service as one sentence: the field's message (422), or the error's. */
export function refusalText(error: unknown): string {
  if (!isAppError(error)) throw error;
  const first = Object.values(error.details.errors ?? {})[0]?.[0];
  return first ?? error.message;
}
