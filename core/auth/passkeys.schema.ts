import { z } from "zod";

/** A base64url value of the browser's answer, bounded (an attestation with certificates stays well under). */
const b64url = (label: string, max = 16_000) =>
  z
    .string({ error: `The passkey's answer lacks its ${label}: try again.` })
    .max(max, { error: `The passkey's ${label} is too long.` })
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: `The passkey's ${label} is not base64url.` });

const clientExtensionResults = z.looseObject({});

/** What `startRegistration()` of @simplewebauthn/browser answers (RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = z
  .looseObject({
    id: b64url("id", 1400),
    rawId: b64url("id", 1400),
    type: z.literal("public-key", { error: "The passkey's answer is not a public key." }),
    response: z.looseObject({
      clientDataJSON: b64url("client data"),
      attestationObject: b64url("attestation"),
      transports: z.array(z.string().max(40)).max(10).optional(),
    }),
    clientExtensionResults: clientExtensionResults.optional(),
    authenticatorAttachment: z.string().max(40).optional(),
  })
  .meta({
    id: "PasskeyRegistrationResponse",
    description: "As `startRegistration()` of @simplewebauthn/browser answers it.",
  });

/** What `startAuthentication()` of @simplewebauthn/browser answers (AuthenticationResponseJSON). */
export const passkeyAuthenticationResponseSchema = z
  .looseObject({
    id: b64url("id", 1400),
    rawId: b64url("id", 1400),
    type: z.literal("public-key", { error: "The passkey's answer is not a public key." }),
    response: z.looseObject({
      clientDataJSON: b64url("client data"),
      authenticatorData: b64url("authenticator data"),
      signature: b64url("signature"),
      userHandle: b64url("user handle", 200).optional(),
    }),
    clientExtensionResults: clientExtensionResults.optional(),
    authenticatorAttachment: z.string().max(40).optional(),
  })
  .meta({
    id: "PasskeyAuthenticationResponse",
    description: "As `startAuthentication()` of @simplewebauthn/browser answers it.",
  });

export const PASSKEY_NAME_MAX = 60;

/** A new passkey's answer that does not check against the options given (or came late, or twice). */
export const PASSKEY_NOT_CHECKED =
  "The passkey could not be checked: its answer does not belong to this request. Try adding it again.";

export const passkeyAddSchema = z.object({
  name: z
    .string()
    .trim()
    .max(PASSKEY_NAME_MAX, { error: `A passkey's name has at most ${PASSKEY_NAME_MAX} characters.` })
    .optional()
    .meta({ description: "What the user calls it (e.g. 'Laptop'); 'Passkey N' without one." }),
  response: passkeyRegistrationResponseSchema,
});

export const passkeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: "Passkey" });

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
export const passkeyOptionsSchema = z
  .looseObject({ challenge: z.string() })
  .meta({ id: "PasskeyOptions", description: "For `startRegistration()` / `startAuthentication()` as `optionsJSON`." });
