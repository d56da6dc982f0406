/**
 * The document library's contract (browser-safe). Paper files are private
 * (decision 0024): the only address of a paper's file is its download route,
 * which checks who asks; never an /uploads/ address.
 */

/** The one address of a paper's current file. */
export function paperDownloadUrl(id: number): string {
  return `/papers/${id}/download`;
}

/** Who asks for a file: signed in or not (roles may matter later). */
export type Viewer = { signedIn: boolean };

/** What decides access to a paper's file: its category's public flag (every category is members-only for now). */
export type PaperAccess = { isPublic: boolean };
