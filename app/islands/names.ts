/**
 * The parts of a public page that run in the browser when the page is served as islands
 * (decision 0033): the names the server writes into the page and the browser's loader reads.
 */
export const ISLAND_NAMES = [
  "site-header",
  "route-feedback",
  "join-form",
  "privacy-dialog",
  "user-menu",
  "load-more",
  "news-filter",
  "join-page-form",
  "message-form",
  "message-page-form",
  "calendar-filters",
  "local-time",
  "papers-search",
  "open-linked-paper",
  "login-form",
  "toaster",
  "route-progress",
  "contact-link",
] as const;
export type IslandName = (typeof ISLAND_NAMES)[number];

/** Facts from the root loader that islands read through `useRootData` in the browser. */
export type IslandRootData = {
  user: import("../../core/accounts/accounts.schema").PublicUser | null;
  roleOnly: boolean;
  /** The public forms' signed shown-at times (decision 0039), issued when the page was made. */
  formTimes: Record<import("../../core/join/join.values").FormKind, string>;
  publicConfig: { recaptchaSiteKey: string | null; recaptchaEnterprise?: boolean; gtmId: string | null };
};

/** The id of the JSON script holding `IslandRootData` in an islands page. */
export const ISLAND_ROOT_DATA_ID = "island-root-data";
