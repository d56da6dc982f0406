import { describe, expect, it } from "vitest";
import { loginSchema, safeRedirectPath } from "../../core/auth/auth.schema";
import { validate } from "../../lib/validation";

describe("safeRedirectPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard/events?page=2#schedule", "/dashboard/events?page=2#schedule"],
    ["/manager", "/manager"],
  ])("follows same-origin path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "//evil.example/path",
    "https://evil.example",
    "javascript:alert(1)",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "evil.example",
    "",
    undefined,
    42,
    `/${"a".repeat(3000)}`,
  ])("ignores %s and falls back to /manager", (input) => {
    expect(safeRedirectPath(input)).toBe("/manager");
  });

  /** Issue 30 point 2: inputs that pass a look at their first characters but normalise to another host. */
  const OFF_SITE = [
    "/.//evil.example",
    "/..//evil.example",
    "/x/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/./..//evil.example/path?q=1#h",
    "//evil.com",
    "/\\evil.com",
    "https:evil.com",
    "http:\\\\\\evil.com",
    "javascript:alert(1)",
    "%2F%2Fevil.com",
  ];
  it.each(OFF_SITE)("never answers a path that leaves the origin for %s", (input) => {
    const answer = safeRedirectPath(input, "/");
    expect(answer).toBe("/");
    // What a browser would do with the answer as a Location or a link on our page.
    expect(new URL(answer, "https://masthead.example").origin).toBe("https://masthead.example");
  });

  it("still follows a path whose dot segments stay on the site, normalised", () => {
    expect(safeRedirectPath("/news/../events/./2027")).toBe("/events/2027");
    expect(safeRedirectPath("/%2e/dashboard")).toBe("/dashboard");
  });
});

describe("login schema (SPEC §5)", () => {
  it("requires both fields with the spec's messages, trims the e-mail and keeps the password as typed", () => {
    const result = validate(loginSchema, { email: "   ", password: "" });
    expect(result).toEqual({
      success: false,
      errors: { email: ["Email is required."], password: ["Password is required."] },
    });
    const ok = validate(loginSchema, { email: "  a@b.org ", password: " secret ", remember: "on" });
    expect(ok).toEqual({ success: true, data: { email: "a@b.org", password: " secret ", remember: true } });
    // Spaces are characters like any other: a password of spaces is a password.
    expect(validate(loginSchema, { email: "a@b.org", password: "   " })).toMatchObject({ success: true });
  });
});
