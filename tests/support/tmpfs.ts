import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A small real file system (tmpfs) to fill up: what a full disk does is only
 * shown by a full disk. Mounting needs root; the tests that use this fail
 * (never skip) without it.
 */
export type SmallDisk = {
  dir: string;
  /** Writes a filler file until the file system answers ENOSPC. */
  fill: () => void;
  /** Removes the filler: space is back. */
  free: () => void;
  unmount: () => void;
};

export function mountSmallDisk(sizeBytes: number, prefix = "masthead-tmpfs-"): SmallDisk {
  if (process.getuid?.() !== 0) {
    throw new Error("This test mounts a small tmpfs to fill it up and must run as root (mount -t tmpfs).");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes}`, "tmpfs", dir]);
  const filler = path.join(dir, "filler.bin");
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, "a");
      try {
        for (const size of [256 * 1024, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 1);
          try {
            for (;;) fs.writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync("umount", ["-l", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under a directory, as paths relative to it (sorted). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}
