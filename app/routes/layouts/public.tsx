import { Outlet } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { PublicFooter } from "../../components/layout/public-footer";
import { HeaderIsland } from "../../components/layout/public-islands";
import {
  DocumentCover,
  DocumentFeedback,
  ProgressBar,
  RouteCover,
  ScrollToTop,
} from "../../components/layout/route-feedback";
import { Island, useIslands } from "../../islands/island";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useRootData } from "../../root";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

/** SPEC §2 'Public layout'. Header and footer render server-side from the settings: no request waterfall. */
export default function PublicLayout() {
  const root = useRootData();
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  const ownPages = root?.ownPages ?? { menu: [], footer: [] };
  const islands = useIslands();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-[70] rounded bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {islands ? (
        <>
          <Island name="route-feedback" component={DocumentFeedback} props={{}} />
          <DocumentCover />
        </>
      ) : (
        <>
          <ProgressBar />
          <RouteCover />
        </>
      )}
      <Island name="site-header" component={HeaderIsland} props={{ settings, ownPages: ownPages.menu }} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <PublicFooter settings={settings} ownPages={ownPages.footer} />
      {islands ? null : <ScrollToTop />}
    </div>
  );
}
