import type { GroupsSeen } from "../access/access";

/**
 * The document library's plain values and helpers (views, sorts, paper
 * fields, addresses): no Zod, so that public pages and the header's search
 * can use them without loading it (decision 0028). library.schema.ts
 * re-exports them and builds its schemas from them.
 */

/** The product's short name in view types (SPEC §9 '{product}-policy'). */
export const PRODUCT = "masthead";

/** SPEC §9: the views a category can have; `default` is stored as null. */
export const VIEW_TYPES = [
  `${PRODUCT}-policy`,
  "upcoming-standards",
  "recently-published-standards",
  `${PRODUCT}-technical-bulletins`,
  "spotlight-magazine",
  `${PRODUCT}-technical-papers`,
] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

export const VIEW_TYPE_LABELS: Record<ViewType | "default", string> = {
  [`${PRODUCT}-policy`]: "Policies",
  "upcoming-standards": "Upcoming standards",
  "recently-published-standards": "Recently published standards",
  [`${PRODUCT}-technical-bulletins`]: "Technical bulletins",
  "spotlight-magazine": "Magazine",
  [`${PRODUCT}-technical-papers`]: "Technical papers",
  default: "Default",
} as Record<ViewType | "default", string>;

export const SORT_VALUES = [
  "no_desc",
  "no_asc",
  "date_desc",
  "date_asc",
  "organization_desc",
  "organization_asc",
] as const;
export type SortValue = (typeof SORT_VALUES)[number];
export type SortOption = { label: string; value: SortValue };

const option = (label: string, value: SortValue): SortOption => ({ label, value });

/** SPEC §9 'Sorting options by category view', labels and values exactly as the table gives them. */
const SORT_OPTIONS: Record<ViewType | "default", SortOption[]> = {
  [`${PRODUCT}-policy`]: [
    option("Title desc", "no_desc"),
    option("Title asc", "no_asc"),
    option("Date desc", "date_desc"),
    option("Date asc", "date_asc"),
  ],
  "upcoming-standards": [option("Org desc", "organization_desc"), option("Org asc", "organization_asc")],
  "recently-published-standards": [option("Org desc", "organization_desc"), option("Org asc", "organization_asc")],
  [`${PRODUCT}-technical-bulletins`]: [option("Title desc", "no_desc"), option("Title asc", "no_asc")],
  "spotlight-magazine": [option("Edition desc", "date_desc"), option("Edition asc", "date_asc")],
  [`${PRODUCT}-technical-papers`]: [
    option("Doc No. desc", "no_desc"),
    option("Doc No. asc", "no_asc"),
    option("Date desc", "date_desc"),
    option("Date asc", "date_asc"),
  ],
  default: [
    option("Doc No. desc", "no_desc"),
    option("Doc No. asc", "no_asc"),
    option("Date desc", "date_desc"),
    option("Date asc", "date_asc"),
  ],
} as Record<ViewType | "default", SortOption[]>;

/** The order a list starts in before the reader picks one (decision 0025): what each view is read for. */
const DEFAULT_SORT: Record<ViewType | "default", SortValue> = {
  [`${PRODUCT}-policy`]: "date_desc",
  "upcoming-standards": "organization_asc",
  "recently-published-standards": "organization_asc",
  [`${PRODUCT}-technical-bulletins`]: "no_asc",
  "spotlight-magazine": "date_desc",
  [`${PRODUCT}-technical-papers`]: "no_desc",
  default: "no_desc",
} as Record<ViewType | "default", SortValue>;

/** A stored view type as one of the views (an unknown or empty one is the default view). */
export function viewOf(viewType: string | null | undefined): ViewType | "default" {
  return (VIEW_TYPES as readonly string[]).includes(viewType ?? "") ? (viewType as ViewType) : "default";
}

export function sortOptions(viewType: string | null | undefined): SortOption[] {
  return SORT_OPTIONS[viewOf(viewType)];
}

export function defaultSort(viewType: string | null | undefined): SortValue {
  return DEFAULT_SORT[viewOf(viewType)];
}

/**
 * What a sort value orders by. `no_*` is labelled "Title" in the policy and bulletin views and
 * "Doc No." elsewhere, so it orders by the name there and by the number elsewhere (decision 0025).
 */
export function sortColumn(
  viewType: string | null | undefined,
  sort: SortValue,
): "name" | "number" | "date" | "organization" {
  const view = viewOf(viewType);
  if (sort.startsWith("no_")) {
    return view === `${PRODUCT}-policy` || view === `${PRODUCT}-technical-bulletins` ? "name" : "number";
  }
  return sort.startsWith("date_") ? "date" : "organization";
}

/** How a category shows its children: as tabs or as an accordion (decision 0025). */
export type ChildrenDisplay = "tabs" | "accordion";
export function childrenDisplay(viewType: string | null | undefined): ChildrenDisplay {
  const view = viewOf(viewType);
  return view === `${PRODUCT}-technical-papers` || view === "default" ? "accordion" : "tabs";
}

/** The paper fields each view shows in its list, in order (SPEC §3 'Paper'; issue 14). */
export type PaperField =
  | "number"
  | "organization"
  | "reference"
  | "revision"
  | "version"
  | "date"
  | "publication_date"
  | "forecast_date"
  | "meeting";
const PAPER_FIELDS: Record<ViewType | "default", PaperField[]> = {
  [`${PRODUCT}-policy`]: ["revision", "date"],
  "upcoming-standards": ["organization", "reference", "forecast_date"],
  "recently-published-standards": ["organization", "reference", "publication_date"],
  [`${PRODUCT}-technical-bulletins`]: ["number", "date"],
  "spotlight-magazine": ["date"],
  [`${PRODUCT}-technical-papers`]: ["number", "version", "date", "meeting"],
  default: ["number", "organization", "revision", "version", "date", "meeting"],
} as Record<ViewType | "default", PaperField[]>;

export function paperFields(viewType: string | null | undefined): PaperField[] {
  return PAPER_FIELDS[viewOf(viewType)];
}

/** How each field is labelled; the magazine's date is its edition. */
export function paperFieldLabel(field: PaperField, viewType: string | null | undefined): string {
  if (field === "date" && viewOf(viewType) === "spotlight-magazine") return "Edition";
  const labels: Record<PaperField, string> = {
    number: "Doc No.",
    organization: "Organization",
    reference: "Reference",
    revision: "Revision",
    version: "Version",
    date: "Date",
    publication_date: "Published",
    forecast_date: "Forecast",
    meeting: "Meeting",
  };
  return labels[field];
}

export const PAPERS_PER_PAGE = 20;

/**
 * A paper's revision as a short label: the prefix before a bare value ('1' → 'Rev. 1'), the value
 * as typed when it already says what it is ('Rev. 1', 'Revision B', 'rev2'), never 'Rev. Rev. 1'.
 */
export function revisionLabel(value: string | null | undefined, prefix = "Rev. "): string | null {
  const typed = value?.trim();
  if (!typed) return null;
  return /^rev(ision)?(?![a-z])/i.test(typed) ? typed : `${prefix}${typed}`;
}

/** A paper's version the same way: '2' → 'v2'; 'v2', 'Ver. 2', 'Version 2' as typed. */
export function versionLabel(value: string | null | undefined, prefix = "v"): string | null {
  const typed = value?.trim();
  if (!typed) return null;
  return /^v(er(sion)?)?(?![a-z])/i.test(typed) ? typed : `${prefix}${typed}`;
}

/** The one address of a paper's current file. */
export function paperDownloadUrl(id: number): string {
  return `/papers/${id}/download`;
}

/** A past file of a paper, at its own stable address. */
export function revisionDownloadUrl(paperId: number, revisionId: number): string {
  return `/papers/${paperId}/revisions/${revisionId}/download`;
}

/** A paper's file in the browser's viewer (PDFs open at `#page=N`). */
export function paperViewUrl(id: number, page?: number): string {
  return `/papers/${id}/view${page ? `#page=${page}` : ""}`;
}

/** Whether an address is a paper's file (served by the server, not a page of the app: links load it as a document). */
export function isPaperFileUrl(url: string): boolean {
  return url.startsWith("/papers/");
}

/** Where a category is read: the members' area, or /library for a public one (visitors and members alike). */
export function categoryUrl(slug: string, isPublic: boolean): string {
  return isPublic ? `/library/${slug}` : `/dashboard/${slug}`;
}

/** A category's own audience (issue 36): is_public's three settings, or groups of its own. */
export const AUDIENCE_SETTINGS = ["inherit", "public", "members", "groups"] as const;
export type AudienceSetting = (typeof AUDIENCE_SETTINGS)[number];

/**
 * Who asks: signed in with members' access or not, whether an admin or editor (who sees inactive
 * categories and every group's), and the working groups whose categories a member sees
 * (core/access viewerOf; none when left out).
 */
export type Viewer = { signedIn: boolean; admin?: boolean; groups?: GroupsSeen };

/** What decides access to a paper's file: its category's effective public flag and groups. */
export type PaperAccess = { isPublic: boolean; groupIds: readonly number[] | null };
