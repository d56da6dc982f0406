import os from "node:os";

/** Number formats shared by the report and the soak. */
const MIB = 1024 * 1024;

export const rate = (value: number) => Math.round(value).toLocaleString("en-US");
/** wrk measures in µs; autocannon in whole ms, so its 0 means under one. */
export const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value > 0 ? value.toFixed(2) : "<1";
export const cpu = (value: number | null) =>
  value === null
    ? "n/a"
    : value >= 10
      ? value.toFixed(0)
      : value >= 1
        ? value.toFixed(1)
        : value >= 0.1
          ? value.toFixed(2)
          : value.toFixed(3);
export const mib = (bytes: number | null) => (bytes === null ? "n/a" : (bytes / MIB).toFixed(1));
export const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : "n/a");

export function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? "unknown CPU";
  const memory = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${model} × ${cpus.length}, ${memory} GiB RAM, ${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}`;
}
