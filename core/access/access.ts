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

/**
 * Who a library category or a meeting is for (issue 36): visitors and members ('public'), every
 * member ('members'), or the members of some working groups ('groups').
 */
export const AUDIENCES = ["public", "members", "groups"] as const;
export type Audience = (typeof AUDIENCES)[number];

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

/**
 * What the decision needs of a signed-in caller (core/auth/auth.service `Authenticated`): the role,
 * the company and the working groups the person is in (ids, ascending; none when left out).
 */
export type AccessSubject = {
  user: { role: { name: RoleName } };
  company: UserCompany | null;
  groups?: readonly number[];
  /** The groups among `groups` the person chairs. */
  chairs?: readonly number[];
  /** An admin or editor who must turn on two-factor sign-in before anything else (decision 0075). */
  twoFactorSetupRequired?: boolean;
};

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

/** The working groups whose content someone sees: some (ids), or all of them (admins and editors). */
export type GroupsSeen = readonly number[] | "all";

/**
 * The working groups whose content the caller sees (issue 36): every group's for admins and
 * editors; a member's own groups while they have members' access (a lapsed company's
 * representative sees no group's content, and keeps their place); none for visitors.
 */
export function groupsOf(auth: AccessSubject | null | undefined): GroupsSeen {
  if (!auth || !hasMembersAccess(auth)) return [];
  return managesContent(auth.user.role.name) ? "all" : (auth.groups ?? []);
}

/**
 * Whose content the caller may change (issue 36): admins and editors all of it ('all'); a chair,
 * the library categories and meetings of the groups they chair, while they have members' access;
 * anyone else nothing (an empty list).
 */
export function editsFor(auth: AccessSubject | null | undefined): GroupsSeen {
  // Two-factor first: an admin or editor the site asks for it changes nothing until it is on.
  if (!auth || auth.twoFactorSetupRequired) return [];
  if (managesContent(auth.user.role.name)) return "all";
  return hasMembersAccess(auth) ? (auth.chairs ?? []) : [];
}

/** Whether the caller may change any content at all: an admin or editor, or a chair of some group (editsFor). */
export function editsAnything(edits: GroupsSeen): boolean {
  return edits === "all" || edits.length > 0;
}

/** Whether content for these groups (null: not a group's) is the caller's to change (editsFor). */
export function editsGroups(edits: GroupsSeen, groupIds: readonly number[] | null): boolean {
  if (edits === "all") return true;
  return groupIds?.some((id) => edits.includes(id)) ?? false;
}

/**
 * What an answer shared between callers may depend on, as the caches key it: 'visitor',
 * 'member' (members' content), 'member:3.7' (members' content and that of groups 3 and 7: shared
 * only by members of exactly those groups), 'member:3.7;chairs:3' (the same, for a chair of group 3:
 * a chair's answers include their group's registrations, which a fellow member never shares), 'lapsed' (signed in, a visitor's content), 'editor' or
 * 'admin' (each their own: a render may show an admin links an editor may not follow). None is
 * "bot" or "browser", the page cache's anonymous keys.
 */
export type AccessKey = "visitor" | "member" | `member:${string}` | "lapsed" | "editor" | "admin";

export function accessKey(auth: AccessSubject | null | undefined): AccessKey {
  if (!auth) return "visitor";
  const role = auth.user.role.name;
  if (role === "admin" || role === "editor") return role;
  if (!hasMembersAccess(auth)) return "lapsed";
  const ids = (list: readonly number[]) => [...list].sort((a, b) => a - b).join(".");
  const groups = auth.groups ?? [];
  const chairs = auth.chairs ?? [];
  // A chair's answers differ from a fellow member's (their group's registrations, issue 36): their own key.
  const chairing = chairs.length === 0 ? "" : `;chairs:${ids(chairs)}`;
  return groups.length === 0 && chairing === "" ? "member" : `member:${ids(groups)}${chairing}`;
}

/**
 * The viewer the read services take (library, meetings, search, join registrations):
 * `signedIn` means "sees members' content" and is true only when hasMembersAccess says so;
 * `admin` (admins and editors) also sees what is not live yet (inactive library categories) and
 * every group's content; `groups` are the groups whose content a member sees (groupsOf).
 */
export function viewerOf(auth: AccessSubject | null | undefined): {
  signedIn: boolean;
  admin: boolean;
  groups: GroupsSeen;
} {
  return {
    signedIn: hasMembersAccess(auth),
    admin: auth ? managesContent(auth.user.role.name) : false,
    groups: groupsOf(auth),
  };
}

/**
 * Whether a viewer sees members' content for these groups (null or empty: for every member):
 * admins and editors every group's; a member, content for a group of theirs; visitors none.
 */
export function seesGroups(
  viewer: { signedIn: boolean; admin?: boolean; groups?: GroupsSeen },
  groupIds: readonly number[] | null,
): boolean {
  if (viewer.admin) return true;
  if (!viewer.signedIn) return false;
  if (!groupIds || groupIds.length === 0) return true;
  const own = viewer.groups ?? [];
  return own === "all" || groupIds.some((id) => own.includes(id));
}

/**
 * The company as a render shared by every caller of the same access key holds it (decision
 * 0032): nothing of the person's company but whether it has lapsed.
 */
export function sharedCompany(auth: AccessSubject): UserCompany | null {
  return accessKey(auth) === "lapsed" ? { id: 0, name: "", current: false, primary: false } : null;
}
