import { describe, expect, it } from "vitest";
import { carriesSessionCookie, readSessionCookie } from "../../core/auth/auth.cookie";

/** Which cookie is the session (decision 0035): over https only the `__Host-` one (session fixation). */
describe("readSessionCookie", () => {
  it("over https reads only __Host-auth.session, never a plain auth.session someone could plant", () => {
    const secure = { secure: true };
    expect(readSessionCookie("auth.session=planted", secure)).toBeNull();
    expect(readSessionCookie("auth.session=planted; __Host-auth.session=real", secure)).toBe("real");
    expect(readSessionCookie("__Host-auth.session=real; auth.session=planted", secure)).toBe("real");
    expect(readSessionCookie("theme=dark", secure)).toBeNull();
  });

  it("over http reads the plain name (a __Host- cookie, which a browser sends only over https, first)", () => {
    const plain = { secure: false };
    expect(readSessionCookie("auth.session=dev", plain)).toBe("dev");
    expect(readSessionCookie("auth.session=dev; __Host-auth.session=real", plain)).toBe("real");
    expect(readSessionCookie(undefined, plain)).toBeNull();
  });

  it("a cache still sees a session cookie under either name", () => {
    expect(carriesSessionCookie("auth.session=x")).toBe(true);
    expect(carriesSessionCookie("__Host-auth.session=x")).toBe(true);
    expect(carriesSessionCookie("theme=dark")).toBe(false);
    expect(carriesSessionCookie(undefined)).toBe(false);
  });
});
