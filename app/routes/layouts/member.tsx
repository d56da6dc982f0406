import { Outlet } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { AccountHeader } from "../../components/account/account-header";
import { UserMenu } from "../../components/account/user-menu";
import { CompactFooter } from "../../components/layout/site-footer";
import { guards } from "../../lib/guards";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useSignedInUser } from "../../lib/use-signed-in-user";
import { useRootData } from "../../root";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

export const middleware = guards("auth");

/** SPEC §2: the member layout with a header and the member-menu dropdown. */
export default function MemberLayout() {
  const root = useRootData();
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  const user = useSignedInUser();
  return (
    <div className="flex min-h-screen flex-col bg-navy-50">
      <AccountHeader settings={settings} logoTo="/dashboard" logoLabel="Members area home">
        <UserMenu user={user} />
      </AccountHeader>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
        <Outlet />
      </main>
      <CompactFooter settings={settings} />
    </div>
  );
}
