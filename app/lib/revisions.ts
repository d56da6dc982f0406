import type { Revision } from "../../core/revisions/revisions.schema";
import { minuteInZone } from "../../lib/time-zones";
import type { ShownRevision } from "../components/admin/revisions-panel";

/** Revisions as the edit screens show them: each with its time in the site's zone. */
export function shownRevisions(revisions: Revision[], zone: string): ShownRevision[] {
  return revisions.map((revision) => ({
    ...revision,
    when: minuteInZone(revision.created_at, zone),
  }));
}
