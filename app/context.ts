import { createContext, type RouterContextProvider } from "react-router";
import type { RequestContext } from "../core/request-context";

/** Filled by the Hono server for every request (see server/app.ts). */
export const requestContext = createContext<RequestContext>();

export function getRequestContext(context: Readonly<RouterContextProvider>): RequestContext {
  return context.get(requestContext);
}
