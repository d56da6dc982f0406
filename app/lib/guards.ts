import { data, type MiddlewareFunction, redirect } from "react-router";
import { editsAnything, editsFor, managesContent } from "../../core/access/access";
import { loggedPath } from "../../lib/logged-path";
import { logAccessRefused, logUploadRejected, UPLOAD_REJECTED_REASONS } from "../../lib/security-log";
import { getRequestContext } from "../context";

type GuardArgs = Parameters<MiddlewareFunction<Response>>[0];

/** Where an admin who must turn on two-factor sign-in is sent (decision 0075). */
export const TWO_FACTOR_SETUP_PATH = "/dashboard/user-settings?two-factor=required#two-factor";

/**
 * A refused visit to an admin page is a security event (docs/decisions/0018):
 * 401 for a visitor who is not signed in, 403 for a signed-in non-admin. The
 * member area's redirect to the login is routine and not logged. Sent to
 * `location`, or, without one, answered 403 with a page that says why.
 */
async function refuse(args: GuardArgs, status: 401 | 403, location: string | { says: string }): Promise<never> {
  refusedUpload(args, status);
  const { context, request, url } = args;
  const { logger, requestId, auth, client, services } = getRequestContext(context);
  logAccessRefused(logger, {
    req_id: requestId,
    status,
    method: request.method,
    path: url.pathname,
    user: auth?.user.id,
    ip: client.ip,
  });
  // And in the audit log (decision 0074), as the person (or visitor) of the request. A log that
  // cannot be written (a full disk) is the operator's to hear of, not a reason to fail the redirect.
  try {
    await services.audit.record({
      action: "access_refused",
      entity: "site",
      summary: `Refused (${status}): ${request.method} ${loggedPath(url.pathname)}`,
    });
  } catch (error) {
    logger.error({ err: error, req_id: requestId }, "audit row of a refused access not written");
  }
  if (typeof location !== "string") throw data(location.says, { status: 403 });
  throw redirect(location);
}

/** What an editor reads on an admin-only screen (issue 36). */
export const EDITOR_REFUSED =
  "This screen is for admins: as an editor you manage the news, pages, meetings and the library.";
/** What a working group's chair reads on a secretariat's screen of the admin area (issue 36). */
export const CHAIR_REFUSED =
  "This screen is for the secretariat: as a chair you manage your groups' meetings (Events) and add papers on your group's page.";

/** Whether someone signed in is a chair and no more: in the admin area for their groups' meetings only. */
const chairOnly = (auth: NonNullable<ReturnType<typeof getRequestContext>["auth"]>) =>
  !managesContent(auth.user.role.name) && editsAnything(editsFor(auth));

/** An upload (a multipart form) turned away by a guard is an `upload_rejected` too (decision 0034). */
function refusedUpload({ context, request, url }: GuardArgs, status: 401 | 403): void {
  if (!/^multipart\//i.test(request.headers.get("content-type") ?? "")) return;
  const { logger, requestId, auth, client } = getRequestContext(context);
  const declared = Number(request.headers.get("content-length"));
  logUploadRejected(logger, {
    req_id: requestId,
    reason: UPLOAD_REJECTED_REASONS[status],
    status,
    method: request.method,
    path: url.pathname,
    ...(Number.isSafeInteger(declared) && declared > 0 ? { bytes: declared } : {}),
    user: auth?.user.id,
    ip: client.ip,
  });
}

/** Who is refused, and where they are sent; `adminArea` says whether the refusal is logged. */
const GUARDS: Record<string, (args: GuardArgs, adminArea: boolean) => void | Promise<void>> = {
  /** Logged-out visitors go to /login, which brings them back here afterwards. */
  auth: async (args, adminArea) => {
    if (getRequestContext(args.context).auth) return;
    // `url` is the page's URL without React Router's data-request details.
    const location = `/login?redirect=${encodeURIComponent(`${args.url.pathname}${args.url.search}`)}`;
    if (adminArea) await refuse(args, 401, location);
    refusedUpload(args, 401);
    throw redirect(location);
  },
  /**
   * The admin area: admins, editors, and working groups' chairs, who manage their groups' meetings
   * there (issue 36). Other members go to their own dashboard. The site may ask admins, editors and
   * chairs for two-factor sign-in (decisions 0075, 0086): set it up first, then the admin area. Only
   * they are ever asked, so the redirect comes first: a chair without it has no powers yet (editsFor).
   */
  chair: async (args) => {
    const { auth } = getRequestContext(args.context);
    if (auth?.twoFactorSetupRequired) throw redirect(TWO_FACTOR_SETUP_PATH);
    if (auth && !managesContent(auth.user.role.name) && !chairOnly(auth)) await refuse(args, 403, "/dashboard");
  },
  /**
   * The secretariat's content (news, pages, the library, the admin home): admins and editors. A
   * chair reads why not, except at the admin home, where the login sends everyone (SPEC §9): from
   * there a chair goes on to their dashboard as every member does.
   */
  editor: async (args) => {
    const { auth } = getRequestContext(args.context);
    if (auth && !managesContent(auth.user.role.name)) {
      const home = /^\/manager\/?$/.test(args.url.pathname);
      await refuse(args, 403, chairOnly(auth) && !home ? { says: CHAIR_REFUSED } : "/dashboard");
    }
    if (auth?.twoFactorSetupRequired) throw redirect(TWO_FACTOR_SETUP_PATH);
  },
  /** Admins' screens: members go to their own dashboard; an editor or a chair, already in the admin area, reads why not (403). */
  admin: async (args) => {
    const { auth } = getRequestContext(args.context);
    if (auth && auth.user.role.name !== "admin") {
      const says = auth.user.role.name === "editor" ? EDITOR_REFUSED : chairOnly(auth) ? CHAIR_REFUSED : null;
      await refuse(args, 403, says ? { says } : "/dashboard");
    }
    if (auth?.twoFactorSetupRequired) throw redirect(TWO_FACTOR_SETUP_PATH);
  },
};
// The spec names an 'ismanager' guard without its body; managers are admins here (docs/decisions).
GUARDS.ismanager = GUARDS.admin;

const ADMIN_GUARDS = new Set(["admin", "editor", "chair", "ismanager"]);

/**
 * Route guards by name (SPEC §6). Layout routes declare them:
 *   export const middleware = guards("auth", "admin");
 */
export function guards(...names: string[]): MiddlewareFunction<Response>[] {
  const adminArea = names.some((name) => ADMIN_GUARDS.has(name));
  return names.map((name) => {
    const guard = GUARDS[name];
    if (!guard) {
      return () => {
        throw data(`Unknown middleware ${name}`, { status: 500 });
      };
    }
    return (args) => guard(args, adminArea);
  });
}
