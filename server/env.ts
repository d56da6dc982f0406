import type { Authenticated } from "../core/auth/auth.service";
import type { Services } from "../core/services";
import type { DatabaseHandle } from "../db/connect";
import type { Config } from "../lib/env";
import type { Logger } from "../lib/logger";
import type { Storages } from "../lib/storages";
import type { AnswerCache } from "./cache/answer-cache";

/** Everything the HTTP layer needs, built once per process by createRuntime. */
export type Runtime = {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
  /** Where uploads and private files live (local disk or S3); the app serves /uploads/* from it. */
  storage: Storages;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    secureHeadersNonce?: string;
    auth: Authenticated | null;
    authVia: "cookie" | "bearer" | null;
    sessionToken: string | null;
    /** The visitor came over https (BASE_URL, or a trusted X-Forwarded-Proto): the session cookie is `__Host-` and Secure. */
    secureCookies: boolean;
    clientIp: string;
    /** Set by the page cache on a page it may store: it encodes the answer itself, once per encoding. */
    pageCacheEncodes?: boolean;
    /** When the page cache took the request (its clock): what it stores is stamped as of then (decision 0071). */
    renderStartedAt?: number;
    /**
     * Set by the page cache on a signed-in request it renders once for the role (decision 0032): the
     * entry to store the answer under, once the chain has given it every header.
     */
    sharedPage?: { key: string; version: number };
    /**
     * Set by a route whose non-admin caller changes what visitors see (a primary contact's company
     * profile): the content version moves after it, as after an admin's change.
     */
    publishes?: boolean;
    /** Set by a route that only reads (a list asked for with a POST body): no content change follows it. */
    readOnly?: boolean;
    /**
     * Set by an API route that declares `cache: "content"`: its answer depends only on the request and the
     * caller's role, so the page cache may keep an anonymous GET's answer as it keeps a page.
     */
    contentAnswer?: boolean;
    /** The API's cache of content answers (server/cache/answer-cache.ts), for routes that declare `cache`. */
    answerCache?: AnswerCache | null;
    /** The method a POST was overridden to (`_method`, X-HTTP-Method-Override), for the logs. */
    effectiveMethod?: string;
    /** The API's methods at this path, for a 405 (set by the method override on POSTs). */
    allowedMethods?: string[];
  };
};
