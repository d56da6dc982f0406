import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import type { RequestContext } from "../core/request-context";
import { loggedPath } from "../lib/logged-path";
import { getRequestContext } from "./context";
import { IslandsProvider, servedAsIslands } from "./islands/island";
import { NonceProvider } from "./lib/nonce";

// The server reads the context key from the build so that both bundles share one key.
export { requestContext } from "./context";

export const streamTimeout = 5_000;

/**
 * Loader, action and render errors, logged as JSON with the request id like the
 * API's (server/errors.ts). Responses thrown on purpose (redirects, `data()`
 * with a 4xx) are answers, not failures, and a request the client abandoned
 * failed on the client's side.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || error instanceof Response) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // React Router wraps some of its own failures in a response; the cause is what tells.
  const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error;
  logPageError(cause, request, context);
};

function logPageError(error: unknown, request: Request, context: unknown) {
  let logger: RequestContext["logger"] | undefined;
  let requestId: string | undefined;
  try {
    ({ logger, requestId } = getRequestContext(context as RouterContextProvider));
  } catch {
    // An error before our context was set: no logger to use.
  }
  const path = loggedPath(new URL(request.url).pathname);
  if (logger) logger.error({ req_id: requestId, method: request.method, path, err: error }, "page error");
  else console.error(error);
}

/**
 * Renders the whole document, then answers it as one buffer with its length.
 * No route streams deferred data, so the shell is the whole page anyway; one
 * buffer spares every chunk a trip through web streams, lets the page cache
 * and the compressor take the page in one piece, and ends the render's abort
 * timer (which would otherwise keep the finished render in memory for
 * seconds) as soon as the page is complete.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce, islands } = getRequestContext(loadContext);
  const { matches } = routerContext.staticHandlerContext;
  const pageIslands = islands && servedAsIslands(matches, routerContext.routeModules) ? islands : null;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Uint8Array[] = [];
    // Only a place to gather React's chunks: a Writable without the readable half a PassThrough would add.
    const body = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timer);
        const html = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(html.length));
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    body.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <IslandsProvider value={pageIslands}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </IslandsProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reach handleError through onShellError; later ones only show here.
          if (shellRendered && !request.signal.aborted) logPageError(error, request, loadContext);
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}
