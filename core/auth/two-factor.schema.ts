import { z } from "zod";
import { passkeyAuthenticationResponseSchema } from "./passkeys.schema";

/** A code of the app (six digits) or a recovery code, as typed. */
export const secondFactorCode = z
  .string({ error: "Type the code." })
  .trim()
  .min(1, { error: "Type the code." })
  .max(40, { error: "That code is too long: type the six digits of the app, or a recovery code." });

/** The sign-in's second step: a code, or a passkey's answer (decision 0076). */
export const twoFactorLoginSchema = z
  .object({
    challenge: z.string({ error: "The sign-in's challenge is missing: start again with your password." }).max(200),
    code: secondFactorCode.optional().meta({ description: "A code of the authenticator app, or a recovery code." }),
    passkey: passkeyAuthenticationResponseSchema
      .optional()
      .meta({ description: "Instead of a code: the answer of `startAuthentication()` to `passkey_options`." }),
  })
  .refine((input) => input.code !== undefined || input.passkey !== undefined, {
    error: "Type the code.",
    path: ["code"],
  });

export const twoFactorCodeSchema = z.object({ code: secondFactorCode });

export const twoFactorDisableSchema = z.object({
  password: z.string({ error: "Type your password." }).min(1, { error: "Type your password." }).max(1000),
  code: secondFactorCode,
});

export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    recovery_codes_left: z.number().int().meta({ description: "Unused recovery codes." }),
  })
  .meta({ id: "TwoFactorStatus" });

export const twoFactorSetupSchema = z.object({
  secret: z.string().meta({ description: "The TOTP secret (base32), for an app that cannot read the QR code." }),
  uri: z.string().meta({ description: "The otpauth:// address the QR code holds." }),
  qr_svg: z.string().meta({ description: "The QR code as SVG, drawn by the site." }),
});

export const recoveryCodesSchema = z.object({
  recovery_codes: z.array(z.string()).meta({ description: "Ten single-use codes: shown this once; keep them safe." }),
});
