import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORAGE_FULL_MESSAGE } from "../../lib/errors";
import { filesUnder, mountSmallDisk, type SmallDisk } from "../support/tmpfs";
import { type ServerProcess, startServer } from "./server";

/**
 * Issue 11 point 5 as an operator meets it: the built server with its whole
 * DATA_DIR (SQLite database and uploads) on a small tmpfs that fills up.
 */
const ADMIN = { email: "disk-admin@masthead.test", password: "disk admin long password" };

let disk: SmallDisk;
let server: ServerProcess;
let token = "";
let photo: Buffer;

beforeAll(async () => {
  disk = mountSmallDisk(24 * 1024 * 1024, "masthead-process-disk-");
  server = await startServer({ dataDir: disk.dir, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
  photo = await sharp({ create: { width: 1800, height: 1000, channels: 3, background: "#2a6f97" } })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  await server?.stop();
  disk?.unmount();
});

function postWithPicture(title: string) {
  const form = new FormData();
  form.append("title", title);
  form.append("content", "<p>With a picture.</p>");
  form.append("image", new File([new Uint8Array(photo)], "harbour.jpg", { type: "image/jpeg" }));
  form.append("image_alt", "A harbour");
  return fetch(`${server.url}/api/dashboard/news`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

/** The footer's join form as a browser without JavaScript sends it (a page action writing a row). */
function joinForm(company: string, address = "/join") {
  return fetch(`${server.url}${address}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({
      company_name: company,
      representative_name: "Ana Silva",
      email: "ana@example.org",
      phone_number: "+47 22 33 44 55",
      page_path: "/",
      started_at: String(Date.now() - 60_000),
    }),
  });
}

const uploads = () => filesUnder(path.join(disk.dir, "uploads"));

describe("the built server on a disk that fills up", () => {
  it("answers writes 507 with the message (API and pages), leaves no files, is not ready, keeps reading, recovers", async () => {
    const before = await postWithPicture("Before the disk fills");
    expect(before.status).toBe(201);
    const filesBefore = uploads();
    expect(filesBefore.length).toBe(3);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    disk.fill();
    try {
      const upload = await postWithPicture("On a full disk");
      expect(upload.status).toBe(507);
      expect(((await upload.json()) as { message: string }).message).toBe(STORAGE_FULL_MESSAGE);
      expect(uploads()).toEqual(filesBefore);

      const page = await joinForm("Full Disk Shipping");
      expect(page.status).toBe(507);
      expect(await page.text()).toContain(STORAGE_FULL_MESSAGE);
      // The same action submitted with JavaScript (React Router's data request).
      const data = await joinForm("Full Disk Shipping", "/join.data");
      expect(data.status).toBe(507);
      expect(await data.text()).toContain(STORAGE_FULL_MESSAGE);

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      await ready.arrayBuffer();

      for (const address of ["/", "/news", "/api/getContactData"]) {
        const read = await fetch(`${server.url}${address}`);
        expect(read.status, address).toBe(200);
        await read.arrayBuffer();
      }
      const logged = server.logs().filter((line) => line.level === 50);
      expect(logged.some((line) => line.msg === "out of storage space")).toBe(true);
      expect(logged.some((line) => line.status === 507 && line.path === "/join")).toBe(true);
      expect(logged.some((line) => String(line.msg).startsWith("readiness check failed"))).toBe(true);
      expect(server.logs().some((line) => line.status === 415 || line.status === 500)).toBe(false);
    } finally {
      disk.free();
    }

    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const after = await postWithPicture("Once space is back");
    expect(after.status).toBe(201);
    expect(uploads().length).toBe(6);
    const joined = await joinForm("Space Again Shipping");
    expect(joined.status).toBe(302);
  });
});
