import { data } from "react-router";
import type { InvitationContext } from "../../../core/accounts/invitation.service";
import {
  type Representative,
  representativeChangeSchema,
  representativeInviteSchema,
} from "../../../core/members/members.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { firstMessages, parseOrThrow } from "../../../lib/validation";
import type { MembersActionData } from "../../components/members/company-parts";

/** The representative operations of one screen: the secretariat's on any company, a primary contact's on their own. */
export type RepresentativeOps = {
  invite: (
    input: ReturnType<typeof representativeInviteSchema.parse>,
    invitation: InvitationContext,
  ) => Promise<{ representative: Representative; invited: boolean }>;
  change: (userId: number, primary: boolean) => Promise<Representative>;
  remove: (userId: number) => Promise<void>;
};

export const textOf = (form: Record<string, FormDataEntryValue>, name: string) =>
  typeof form[name] === "string" ? (form[name] as string) : "";

const nameOf = (r: Pick<Representative, "first_name" | "last_name" | "email">) =>
  `${r.first_name} ${r.last_name}`.trim() || r.email;

function userIdOf(form: Record<string, FormDataEntryValue>): number {
  const id = parseId(form.user_id);
  if (id === null) throw data("Unknown representative.", { status: 400 });
  return id;
}

/**
 * The representatives' intents, the same on both screens: `invite`, `primary`, `remove-representative`.
 * Null for another intent. A refusal is the page's data: field errors with what was typed for the
 * invitation, the service's message for a row action.
 */
export async function representativeAction(
  form: Record<string, FormDataEntryValue>,
  ops: RepresentativeOps,
  invitation: InvitationContext,
): Promise<ReturnType<typeof data<MembersActionData>> | null> {
  const intent = textOf(form, "intent");
  try {
    switch (intent) {
      case "invite": {
        const { representative, invited } = await ops.invite(
          parseOrThrow(representativeInviteSchema, form),
          invitation,
        );
        return data<MembersActionData>({
          intent,
          notice: invited
            ? `Invitation sent to ${representative.email}.`
            : `${nameOf(representative)} already had an account: it now represents the company, and they were told by e-mail.`,
        });
      }
      case "primary": {
        const { primary } = parseOrThrow(representativeChangeSchema, { primary: form.primary });
        const r = await ops.change(userIdOf(form), primary);
        return data<MembersActionData>({
          intent,
          notice: `${nameOf(r)} is ${r.primary ? "now a primary contact" : "no longer a primary contact"}.`,
        });
      }
      case "remove-representative":
        await ops.remove(userIdOf(form));
        return data<MembersActionData>({
          intent,
          notice: "The representative is removed from the company; their account stays.",
        });
      default:
        return null;
    }
  } catch (error) {
    return refusal(error, intent, form, ["first_name", "last_name", "email"]);
  }
}

/**
 * A service's refusal as the page's data: a form's (`fields` given) field errors with what was
 * typed, or the message alone for a row action; anything but an AppError is thrown on.
 */
export function refusal(
  error: unknown,
  intent: string,
  form: Record<string, FormDataEntryValue>,
  fields: string[],
): ReturnType<typeof data<MembersActionData>> {
  if (!isAppError(error)) throw error;
  const errors = error.details.errors as Record<string, string[]> | undefined;
  if (errors && fields.length > 0 && (intent === "invite" || intent === "save" || intent === "profile")) {
    const values = Object.fromEntries(fields.map((name) => [name, textOf(form, name)]));
    return data<MembersActionData>({ intent, errors: firstMessages(errors), values }, { status: error.status });
  }
  return data<MembersActionData>({ error: error.message }, { status: error.status });
}

/** The uploaded image of a file field, if one was chosen. */
export async function imageOf(value: FormDataEntryValue | undefined): Promise<Uint8Array | undefined> {
  return value instanceof File && value.size > 0 ? new Uint8Array(await value.arrayBuffer()) : undefined;
}
