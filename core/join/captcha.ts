import type { CaptchaCheck } from "./join.service";

/**
 * reCAPTCHA's server-side check (the siteverify protocol): the token the
 * browser got, the secret and the visitor's address; only `success` counts.
 * Unreachable or malformed answers fail closed.
 */
export function recaptchaCheck(options: { secretKey: string; verifyUrl: string; timeoutMs?: number }): CaptchaCheck {
  return {
    required: true,
    async verify(token, ip) {
      const body = new URLSearchParams({ secret: options.secretKey, response: token });
      if (ip) body.set("remoteip", ip);
      try {
        const response = await fetch(options.verifyUrl, {
          method: "POST",
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
        if (!response.ok) return false;
        const answer = (await response.json()) as { success?: unknown };
        return answer.success === true;
      } catch {
        return false;
      }
    },
  };
}
