import { type ReactNode, useEffect } from "react";
import { preloadModule } from "react-dom";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { IslandsManifest } from "../lib/islands-manifest";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { LogoMark } from "./components/layout/logo";
import { IconSprite } from "./components/ui/icon-sprite";
import { Toaster } from "./components/ui/toast";
import { getRequestContext } from "./context";
import { Island, useIslands } from "./islands/island";
import { ISLAND_ROOT_DATA_ID, type IslandRootData } from "./islands/names";
import { ROUTE_CHANGE_SCRIPT } from "./islands/route-change";
import { CHUNK_RELOAD_KEY, shouldReloadForChunkError } from "./lib/chunk-reload";
import { useNonce } from "./lib/nonce";
import { SHARED_WHEN_SIGNED_IN } from "./lib/shared-pages";
import { loadTagManager } from "./lib/third-party";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth, origin, publicConfig, sharedRender } = getRequestContext(context);
  const [settings, formTimes, ownPages] = await Promise.all([
    services.settings.getAll(),
    services.join.formTimes(),
    // The association's own pages in the menu and the footer (decision 0072).
    services.pages.placements(),
  ]);
  // formTimes: when the page was made, signed for each public form (decision 0039), which sends it
  // back for the server's "too fast" check, with or without JavaScript.
  // roleOnly: the page is shared by the role's users (decision 0032); `user` holds the role alone,
  // and useSignedInUser fetches the rest.
  const roleOnly = Boolean(auth && sharedRender);
  return { settings, ownPages, user: auth?.user ?? null, roleOnly, origin, formTimes, publicConfig };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const islands = useIslands();
  // Marks the document once React has taken over (error pages included), so that tests can tell.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0a2342" />
        <Meta />
        {/* With a precedence React puts the stylesheet before the scripts' module preloads, which would
            otherwise take the first connections while the page waits for its CSS to paint. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Links />
        {islands ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, before the first paint
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ROUTE_CHANGE_SCRIPT }} />
        ) : null}
      </head>
      <body className="min-h-screen">
        <IconSprite />
        {children}
        {/* At the foot of the screen, where no header button sits (decision 0041); saves say so inline, not here. */}
        <Island
          name="toaster"
          component={Toaster}
          props={{ position: "bottom-right", richColors: true, closeButton: true }}
        />
        {islands ? (
          <IslandScripts manifest={islands} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

/**
 * An islands page's scripts (decision 0033): the root data its islands read, and the loader,
 * in place of React Router's hydration scripts. Each island preloads its own files.
 */
function IslandScripts({ manifest, nonce }: { manifest: IslandsManifest; nonce: string }) {
  const root = useRootData();
  for (const file of manifest.entryImports) preloadModule(file, { as: "script" });
  const data: IslandRootData = {
    user: root?.user ?? null,
    roleOnly: root?.roleOnly ?? false,
    formTimes: root?.formTimes ?? { join: "", message: "" },
    publicConfig: root?.publicConfig ?? { recaptchaSiteKey: null, gtmId: null },
  };
  return (
    <>
      <script
        type="application/json"
        id={ISLAND_ROOT_DATA_ID}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with every `<` escaped, so it cannot end the script
        dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
      />
      <script type="module" src={manifest.entry} nonce={nonce} />
    </>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const gtmId = loaderData.publicConfig.gtmId;
  // Analytics only when configured, and only once the page is interactive.
  useEffect(() => {
    if (gtmId) loadTagManager(gtmId);
  }, [gtmId]);
  return <Outlet />;
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A deploy replaced the code chunks under an open page: reload once (at most every 60 s) instead of failing.
  useEffect(() => {
    const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)) || null;
    if (shouldReloadForChunkError(error, Date.now(), last)) {
      window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
      window.location.reload();
    }
  }, [error]);
  let status = 500;
  let message = "Something went wrong on our side. Please try again in a moment.";
  let detail: string | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message =
      status === 404
        ? "This page could not be found"
        : typeof error.data === "string" && error.data
          ? error.data
          : error.statusText || message;
  } else if (import.meta.env.DEV && error instanceof Error) {
    message = error.message;
    detail = error.stack;
  }
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-navy-50 px-6 py-16 text-center">
      <title>{`${status} · ${status === 404 ? "Page not found" : status === 403 ? "Not allowed" : "Error"}`}</title>
      <LogoMark className="h-14 w-14" />
      <p className="mt-8 font-display text-7xl font-bold text-navy-900" aria-hidden="true">
        {status}
      </p>
      <h1 className="mt-4 max-w-xl text-xl font-semibold text-slate-800">
        <span className="sr-only">Error {status}: </span>
        {message}
      </h1>
      {status === 404 ? (
        <Link to="/" className="btn-primary mt-8">
          Back to the home page
        </Link>
      ) : status === 403 ? (
        // Refused inside the admin area (an editor on an admin's screen, issue 36): back to what they may use.
        <Link to="/manager" className="btn-primary mt-8">
          Back to the manager
        </Link>
      ) : (
        <a href="/" className="btn-outline mt-8">
          Go to the home page
        </a>
      )}
      {detail ? <pre className="mt-8 max-w-3xl overflow-auto text-left text-xs text-slate-600">{detail}</pre> : null}
    </main>
  );
}
