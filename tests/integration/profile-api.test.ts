import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const patch = (token: string, fields: Record<string, string>) =>
  call(t.app, "POST", "/api/dashboard/user/settings", {
    token,
    form: { _method: "PATCH", ...fields },
    multipart: true,
  });

describe("PATCH /api/dashboard/user/settings", () => {
  it("changes only the non-empty fields and answers the stored user", async () => {
    const member = await signIn(t.runtime.services);
    const res = await patch(member.token, {
      first_name: " Ingrid ",
      last_name: "",
      email: "",
      phone_number: "+47 22 33 44 55",
    });
    expect(res.status).toBe(200);
    const user = (res.json as { user: Record<string, unknown> }).user;
    expect(user).toMatchObject({
      id: member.user.id,
      first_name: "Ingrid",
      last_name: member.user.last_name,
      email: member.user.email,
      phone_number: "+47 22 33 44 55",
    });
    const me = await call(t.app, "GET", "/api/dashboard/user", { token: member.token });
    expect((me.json as { user: Record<string, unknown> }).user).toMatchObject({ first_name: "Ingrid" });
  });

  it("counts password-change attempts against the same limit as checkValidPass", async () => {
    const member = await signIn(t.runtime.services);
    const NEW = "quiet-harbour-lights";
    const attempt = () =>
      patch(member.token, { password: "a wrong guess", new_password: NEW, confirm_new_password: NEW });
    for (let i = 0; i < 10; i += 1) expect((await attempt()).status).toBe(422);
    expect((await attempt()).status).toBe(429);
    expect(
      (await call(t.app, "GET", "/api/dashboard/user/checkValidPass?password=x", { token: member.token })).status,
    ).toBe(429);
  });

  it("ignores fields a member may not set (role, activity, picture), and checks the phone's form", async () => {
    const member = await signIn(t.runtime.services);
    const res = await patch(member.token, {
      first_name: "Mara",
      role: "admin",
      is_active: "0",
      avatar: "/uploads/x.webp",
    });
    expect(res.status).toBe(200);
    const stored = await t.runtime.services.accounts.getUser(member.user.id);
    expect(stored).toMatchObject({ first_name: "Mara", role: { name: "member" }, status: "active", avatar: null });
    expect((await patch(member.token, { phone_number: "12ab" })).json?.errors).toEqual({
      phone_number: ["Phone format is incorrect."],
    });
  });

  it("keeps e-mail addresses unique whatever their case, and checks their form", async () => {
    const { user: other } = await createUser(t.runtime.services, { email: "taken-address@example.org" });
    const member = await signIn(t.runtime.services);
    const taken = await patch(member.token, { email: "Taken-Address@Example.org", password: PASSWORD });
    expect(taken.status).toBe(422);
    expect(taken.json?.errors).toEqual({ email: ["The email has already been taken."] });
    expect((await patch(member.token, { email: "not-an-address", password: PASSWORD })).json?.errors).toEqual({
      email: ["Email is not valid."],
    });
    const changed = await patch(member.token, { email: "New.Address@Example.org", password: PASSWORD });
    expect((changed.json as { user: { email: string } }).user.email).toBe("new.address@example.org");
    expect(other.email).toBe("taken-address@example.org");
  });

  it("changes the password only with the right current one, applies the rules, and ends the other sessions", async () => {
    const { user } = await createUser(t.runtime.services);
    const here = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "10.0.0.1" });
    const elsewhere = await t.runtime.services.auth.login(
      { email: user.email, password: PASSWORD },
      { ip: "10.0.0.2" },
    );
    const NEW = "signal-flags-at-dawn";
    expect(
      (await patch(here.token, { password: "wrong password", new_password: NEW, confirm_new_password: NEW })).json
        ?.errors,
    ).toEqual({
      password: ["The current password is not correct."],
    });
    expect(
      (await patch(here.token, { password: PASSWORD, new_password: "short", confirm_new_password: "short" })).json
        ?.errors,
    ).toEqual({
      new_password: ["The new password must be at least 10 characters."],
    });
    expect(
      (await patch(here.token, { password: PASSWORD, new_password: NEW, confirm_new_password: "other-words-1" })).json
        ?.errors,
    ).toEqual({
      confirm_new_password: ["The passwords do not match."],
    });
    expect(
      (await patch(here.token, { password: PASSWORD, new_password: user.email, confirm_new_password: user.email })).json
        ?.errors,
    ).toEqual({
      new_password: ["The password must not be your e-mail address."],
    });
    const ok = await patch(here.token, { password: PASSWORD, new_password: NEW, confirm_new_password: NEW });
    expect(ok.status).toBe(200);
    expect(await t.runtime.services.auth.authenticate(here.token)).not.toBeNull();
    expect(await t.runtime.services.auth.authenticate(elsewhere.token)).toBeNull();
    expect((await call(t.app, "POST", "/api/login", { json: { email: user.email, password: PASSWORD } })).status).toBe(
      401,
    );
    expect((await call(t.app, "POST", "/api/login", { json: { email: user.email, password: NEW } })).status).toBe(200);
  });

  it("is for signed-in users only", async () => {
    expect(
      (await call(t.app, "POST", "/api/dashboard/user/settings", { json: { _method: "PATCH", first_name: "X" } }))
        .status,
    ).toBe(401);
  });
});

describe("GET /api/dashboard/user/checkValidPass", () => {
  it("says whether the current password is right, and is rate limited", async () => {
    const member = await signIn(t.runtime.services);
    const check = (password: string) =>
      call(t.app, "GET", `/api/dashboard/user/checkValidPass?password=${encodeURIComponent(password)}`, {
        token: member.token,
      });
    expect((await check(PASSWORD)).json).toEqual({ status: "success", valid: true });
    expect((await check("wrong")).json).toEqual({ status: "success", valid: false });
    for (let i = 0; i < 8; i += 1) await check("wrong");
    const limited = await check(PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });
});

describe("avatar", () => {
  it("crops a real image to squares of 64, 128 and 256 px without metadata, shows it, replaces and removes it", async () => {
    const member = await signIn(t.runtime.services);
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Artist: "Camera owner" } } })
      .toBuffer();
    const upload = (bytes: BlobPart, name = "me.jpg") =>
      call(t.app, "POST", "/api/settings/profile/updateAvatar", {
        token: member.token,
        form: { avatar: new File([bytes], name, { type: "image/jpeg" }) },
        multipart: true,
      });
    const res = await upload(new Uint8Array(photo));
    expect(res.status).toBe(200);
    const avatar = (res.json as { avatar: string }).avatar;
    expect(avatar).toMatch(/^\/uploads\/avatars\/[0-9a-f]{16}-256\.webp$/);
    const file = (size: number) =>
      path.join(t.runtime.config.uploadsDir, avatar.slice("/uploads/".length).replace("-256", `-${size}`));
    for (const size of [64, 128, 256]) {
      const meta = await sharp(fs.readFileSync(file(size))).metadata();
      expect([meta.width, meta.height, meta.format, meta.exif]).toEqual([size, size, "webp", undefined]);
    }
    const me = await call(t.app, "GET", "/api/dashboard/user", { token: member.token });
    expect((me.json as { user: { avatar: string } }).user.avatar).toBe(avatar);

    const second = (await upload(new Uint8Array(photo))).json as { avatar: string };
    expect(second.avatar).not.toBe(avatar);
    expect(fs.existsSync(file(256))).toBe(false);

    const removed = await call(t.app, "DELETE", "/api/settings/profile/avatar", { token: member.token });
    expect(removed.json).toEqual({ status: "success", avatar: null });
    const after = await call(t.app, "GET", "/api/dashboard/user", { token: member.token });
    expect((after.json as { user: { avatar: string | null } }).user.avatar).toBeNull();
  });

  it("refuses a file that is not an image (415) and a missing file (422)", async () => {
    const member = await signIn(t.runtime.services);
    const fake = await call(t.app, "POST", "/api/settings/profile/updateAvatar", {
      token: member.token,
      form: { avatar: new File([new TextEncoder().encode("<svg onload=alert(1)>")], "me.jpg", { type: "image/jpeg" }) },
      multipart: true,
    });
    expect(fake.status).toBe(415);
    const missing = await call(t.app, "POST", "/api/settings/profile/updateAvatar", {
      token: member.token,
      form: { other: "x" },
      multipart: true,
    });
    expect(missing.status).toBe(422);
    expect(
      (await call(t.app, "POST", "/api/settings/profile/updateAvatar", { form: { x: "y" }, multipart: true })).status,
    ).toBe(401);
  });
});
