import { data } from "react-router";
import { editsAnything, editsFor } from "../../../core/access/access";
import type { RegistrationActor } from "../../../core/join/registrations.service";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { getRequestContext } from "../../context";

/**
 * The meeting a registrations screen or file is about; 404 for an id that is no meeting, 403 with
 * why for a chair's look at another group's (issue 36: a chair sees their groups' registrations).
 */
export async function meetingOf(context: Parameters<typeof getRequestContext>[0], id: string | undefined) {
  const meetingId = parseId(id);
  if (meetingId === null) throw data("This page could not be found", { status: 404 });
  const { services, auth } = getRequestContext(context);
  try {
    return await services.meetingsAdmin.get(meetingId, editsFor(auth));
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    if (isAppError(error) && error.code === "forbidden") throw data(error.message, { status: 403 });
    throw error;
  }
}

/** Who changes a registration from these screens: an admin, an editor or a chair (the admin layout's guard let them in). */
export function actorOf(context: Parameters<typeof getRequestContext>[0]): RegistrationActor {
  const { auth } = getRequestContext(context);
  const user = auth?.user;
  if (!user || !editsAnything(editsFor(auth))) throw data("This action is unauthorized.", { status: 403 });
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
}

/** A refusal of the registrations service as one sentence: the field's message (422), or the error's. */
export function refusalText(error: unknown): string {
  if (!isAppError(error)) throw error;
  const first = Object.values(error.details.errors ?? {})[0]?.[0];
  return first ?? error.message;
}
