import type { IslandsManifest } from "../lib/islands-manifest";
import type { Logger } from "../lib/logger";
import type { Authenticated } from "./auth/auth.service";
import type { Services } from "./services";

/**
 * What the HTTP layer hands to every loader, action and middleware: the
 * services, the signed-in user (if any) and facts about the request.
 */
export type RequestContext = {
  services: Services;
  auth: Authenticated | null;
  sessionToken: string | null;
  client: { ip: string; userAgent: string | null };
  nonce: string;
  requestId: string;
  secureCookies: boolean;
  /** The public origin (BASE_URL), for canonical links, the sitemap and sharing cards. */
  origin: string;
  logger: Logger;
  /**
   * Configuration the browser may see: the captcha's site key (and whether it is a reCAPTCHA
   * Enterprise key, decision 0040) and the tag manager container.
   */
  publicConfig: { recaptchaSiteKey: string | null; recaptchaEnterprise?: boolean; gtmId: string | null };
  /**
   * The page is rendered once for every signed-in user of the role (decision 0032): `auth.user`
   * holds the role alone, and the browser fetches the rest.
   */
  sharedRender?: boolean;
  /** The islands build's manifest: public pages are then served as islands (decision 0033). */
  islands?: IslandsManifest | null;
};
