import { spawnSync } from "node:child_process";

/**
 * Installs a Debian package with apt-get when we are root on a Debian-like
 * machine (the test tools' browsers and proxies come from Debian, never from a
 * download of their own). Tries once, then again after `apt-get update`.
 * Waits up to two minutes for another apt-get or dpkg (say, a test installing
 * Chromium at the same time) to release dpkg's lock instead of failing at once.
 * Returns false when it cannot (not root, no apt-get) or the install failed.
 */
export function installDebianPackage(name: string, log: (message: string) => void = console.log): boolean {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!isRoot || !hasApt) return false;
  log(`Installing Debian's ${name} package with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const wait = ["-o", "DPkg::Lock::Timeout=120"];
  const install = () =>
    spawnSync("apt-get", [...wait, "install", "-y", "--no-install-recommends", name], { stdio: "inherit", env })
      .status === 0;
  if (install()) return true;
  spawnSync("apt-get", [...wait, "update"], { stdio: "inherit", env });
  return install();
}
