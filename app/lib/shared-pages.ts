/**
 * `export const handle = SHARED_WHEN_SIGNED_IN` in a route module: the page is
 * rendered once per role for signed-in users and kept in the page cache
 * (server/shared-pages.ts, decision 0032). The route promises that its loader
 * and its component read nothing of the signed-in user but the role; what
 * names the person (the menu's picture and e-mail, the join form's values)
 * comes from useSignedInUser, which fetches it in the browser.
 */
export const SHARED_WHEN_SIGNED_IN = { sharedWhenSignedIn: true } as const;
