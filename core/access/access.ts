/**
 * Who is a member (issue 31, decision 0044): the one decision behind the members-only library,
 * members-only meetings, the private calendar feed, the signed-in shared page renders and the
 * API's answer cache (their keys), and site search's members audience. Every read path asks
 * these functions of the signed-in caller; nothing else compares roles or checks `auth !== null`
 * to open members' content.
 *
 * Members' content is for admins; members whose company is current; and members without a
 * company (individual and honorary members). A member whose company has lapsed, is suspended or
 * has left can still sign in, and gets what a visitor gets everywhere else.
 *
 * No Zod and no database: the browser bundles may import it.
 */

/** The signed-in caller's company as the session found it (null: none). */
export type UserCompany = {
  id: number;
  name: string;
  /** Current today (core/members/current.ts), as of this request. */
  current: boolean;
  /** A primary contact of the company. */
  primary: boolean;
};

/** The roles (core/accounts/accounts.schema ROLES; repeated here for the browser bundles). */
export type RoleName = "admin" | "editor" | "member";

/** What the decision needs of a signed-in caller (core/auth/auth.service `Authenticated`). */
export type AccessSubject = { user: { role: { name: RoleName } }; company: UserCompany | null };

/**
 * The secretariat's roles, who manage the site's content: news, pages, meetings and their
 * registrations, the library (issue 36). Admins also manage the membership, users, settings,
 * privacy requests and the audit log; editors nothing of those.
 */
export function managesContent(role: RoleName): boolean {
  return role === "admin" || role === "editor";
}

/** Whether the caller sees members' content. */
export function hasMembersAccess(auth: AccessSubject | null | undefined): boolean {
  if (!auth) return false;
  if (managesContent(auth.user.role.name)) return true;
  return auth.company === null || auth.company.current;
}

/** A signed-in member whose company is not current: signed in, with a visitor's view and the lapsed notice. */
export function isLapsedMember(auth: AccessSubject | null | undefined): boolean {
  return Boolean(auth) && !hasMembersAccess(auth);
}

/**
 * What an answer shared between callers may depend on, as the caches key it: 'visitor',
 * 'member' (members' content), 'lapsed' (signed in, a visitor's content), 'editor' or 'admin'
 * (each their own: a render may show an admin links an editor may not follow). None is "bot" or
 * "browser", the page cache's anonymous keys.
 */
export type AccessKey = "visitor" | "member" | "lapsed" | "editor" | "admin";

export function accessKey(auth: AccessSubject | null | undefined): AccessKey {
  if (!auth) return "visitor";
  const role = auth.user.role.name;
  if (role === "admin" || role === "editor") return role;
  return hasMembersAccess(auth) ? "member" : "lapsed";
}

/**
 * The viewer the read services take (library, meetings, search, join registrations):
 * `signedIn` means "sees members' content" and is true only when hasMembersAccess says so;
 * `admin` (admins and editors) also sees what is not live yet (inactive library categories).
 */
export function viewerOf(auth: AccessSubject | null | undefined): { signedIn: boolean; admin: boolean } {
  return { signedIn: hasMembersAccess(auth), admin: auth ? managesContent(auth.user.role.name) : false };
}

/**
 * The company as a render shared by every caller of the same access key holds it (decision
 * 0032): nothing of the person's company but whether it has lapsed.
 */
export function sharedCompany(auth: AccessSubject): UserCompany | null {
  return accessKey(auth) === "lapsed" ? { id: 0, name: "", current: false, primary: false } : null;
}
