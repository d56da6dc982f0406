import { Link, Outlet } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { AccountHeader } from "../../components/account/account-header";
import { DocumentProgress, ProgressBar } from "../../components/layout/route-feedback";
import { CompactFooter } from "../../components/layout/site-footer";
import { Island, useIslands } from "../../islands/island";
import { useRootData } from "../../root";

/** SPEC §2 'Member layout (login)': back-to-home, Become a member, and a footer. */
export default function LoginLayout() {
  const settings = useRootData()?.settings ?? DEFAULT_SETTINGS;
  const islands = useIslands();
  return (
    <div className="flex min-h-screen flex-col bg-navy-50">
      {/* SPEC §4 'Route change': documents on an islands page (decision 0033), the router's navigations otherwise. */}
      {islands ? <Island name="route-progress" component={DocumentProgress} props={{}} /> : <ProgressBar />}
      <AccountHeader settings={settings}>
        <Link to="/members-join" className="btn-accent">
          Become a member
        </Link>
      </AccountHeader>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
        <Outlet />
      </main>
      <CompactFooter settings={settings} />
    </div>
  );
}
