import type { SiteSettings } from "../../../core/settings/settings.schema";
import type { OwnPageLink } from "../../lib/site-map";
import { useSignedInUser } from "../../lib/use-signed-in-user";
import { UserMenu } from "../account/user-menu";
import { JoinForm, MessageForm } from "../join/public-form";
import { SiteHeader } from "./site-header";

/**
 * The public layout's parts that run in the browser, each taking the signed-in user itself
 * (from the root's data: on a page shared by a role, the browser fetches the person), so that
 * an islands page (decision 0033) writes no personal detail into its props.
 */
export function HeaderIsland({ settings, ownPages }: { settings: SiteSettings; ownPages: OwnPageLink[] }) {
  return <SiteHeader settings={settings} ownPages={ownPages} user={useSignedInUser()} />;
}

/** `registering`: the form registers for the page's meeting, with its note field (issue 32). */
export function JoinFormIsland({ registering = false }: { registering?: boolean }) {
  return <JoinForm user={useSignedInUser()} registering={registering} />;
}

export function MessageFormIsland() {
  return <MessageForm user={useSignedInUser()} />;
}

export function UserMenuIsland() {
  return <UserMenu user={useSignedInUser()} />;
}
