import type { Authenticated } from "../core/auth/auth.service";
import type { Services } from "../core/services";
import type { DatabaseHandle } from "../db/connect";
import type { Config } from "../lib/env";
import type { Logger } from "../lib/logger";

/** Everything the HTTP layer needs, built once per process by createRuntime. */
export type Runtime = {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    secureHeadersNonce?: string;
    auth: Authenticated | null;
    authVia: "cookie" | "bearer" | null;
    sessionToken: string | null;
    clientIp: string;
  };
};
