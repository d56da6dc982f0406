import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureNginx, referenceConfig, selfSignedCertificate } from "../../scripts/nginx";

/**
 * The reference for operators (docs/deploy/nginx-masthead.conf) is a
 * configuration nginx accepts: read inside an http block as a site file is,
 * with a certificate where the placeholders point.
 */
const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-nginx-reference-"));
afterAll(() => fs.rmSync(prefix, { recursive: true, force: true }));

describe("the nginx reference configuration", () => {
  it("passes nginx -t", () => {
    const binary = ensureNginx();
    if (!binary) throw new Error("nginx is not installed and could not be installed (apt-get as root).");
    const { certificate, key } = selfSignedCertificate(prefix, "www.example.org");
    const site = referenceConfig()
      .replace("/etc/letsencrypt/live/www.example.org/fullchain.pem", certificate)
      .replace("/etc/letsencrypt/live/www.example.org/privkey.pem", key)
      .replace("/var/cache/nginx/masthead", path.join(prefix, "cache"));
    fs.writeFileSync(path.join(prefix, "site.conf"), site);
    fs.writeFileSync(
      path.join(prefix, "nginx.conf"),
      `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${prefix}/site.conf;\n}\n`,
    );
    const test = spawnSync(binary, ["-t", "-p", prefix, "-c", path.join(prefix, "nginx.conf")], { encoding: "utf8" });
    expect(test.stderr).toContain("test is successful");
    expect(test.status).toBe(0);
  });
});
