import { describe, expect, it } from "vitest";
import { CAPTCHA_VERSION, captchaToken } from "../../app/lib/third-party";

/**
 * SPEC §8 'Captcha errors': the widget's own refusals, before it touches the page or loads a
 * script. 'Failed to load script' and 'Failed to execute' are seen in Chromium (tests/e2e/captcha.spec.ts).
 */
describe("the captcha widget", () => {
  const container = {} as HTMLElement;

  it("reports 'No key provided' without a site key", async () => {
    await expect(captchaToken({ siteKey: null, version: CAPTCHA_VERSION, container })).rejects.toThrow(
      /^No key provided$/,
    );
    await expect(
      captchaToken({ siteKey: "", version: CAPTCHA_VERSION, container, enterprise: true, action: "join" }),
    ).rejects.toThrow(/^No key provided$/);
  });

  it("reports 'No version provided' without a version", async () => {
    await expect(captchaToken({ siteKey: "key", version: null, container })).rejects.toThrow(/^No version provided$/);
  });
});
