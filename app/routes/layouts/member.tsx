import { Outlet } from "react-router";
import { isLapsedMember } from "../../../core/access/access";
import { LAPSED_NOTICE } from "../../../core/members/members.values";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { AccountHeader } from "../../components/account/account-header";
import { UserMenu } from "../../components/account/user-menu";
import { ProgressBar } from "../../components/layout/route-feedback";
import { CompactFooter } from "../../components/layout/site-footer";
import { getRequestContext } from "../../context";
import { guards } from "../../lib/guards";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useSignedInUser } from "../../lib/use-signed-in-user";
import { useRootData } from "../../root";
import type { Route } from "./+types/member";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

export const middleware = guards("auth");

/**
 * Whether the signed-in member's company has lapsed (core/access/access.ts): they keep the members'
 * area, with a visitor's view of its content, and are told why (issue 31). The shared render of
 * decision 0032 keeps this much of the company, and no more (page cache key 'lapsed').
 */
export function loader({ context }: Route.LoaderArgs) {
  return { lapsed: isLapsedMember(getRequestContext(context).auth) };
}

/** SPEC §2: the member layout with a header and the member-menu dropdown. */
export default function MemberLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  const user = useSignedInUser();
  return (
    <div className="flex min-h-screen flex-col bg-navy-50">
      {/* SPEC §4 'Route change': the bar in every layout. */}
      <ProgressBar />
      <AccountHeader settings={settings} logoTo="/dashboard" logoLabel="Members area home">
        <UserMenu user={user} />
      </AccountHeader>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
        {loaderData?.lapsed ? (
          <p className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {LAPSED_NOTICE}
          </p>
        ) : null}
        <Outlet />
      </main>
      <CompactFooter settings={settings} />
    </div>
  );
}
