import { z } from "zod";

/** A base64url value of the browser's answer, bounded (an attestation with certificates stays well under). */
const b64url = (label: string, max = 16_000) =>
  z
    .string({ error: `The passkey's answer lacks its ${label}: try again.` })
    .max(max, { error: `The passkey's ${label} is too long.` })
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: `The passkey's ${label} is not base64url.` });

/** A credential as @simplewebauthn/browser answers it, around its `response`. */
const credentialAnswer = <T extends z.ZodRawShape>(response: T) =>
  z.looseObject({
    id: b64url("id", 1400),
    rawId: b64url("id", 1400),
    type: z.literal("public-key", { error: "The passkey's answer is not a public key." }),
    response: z.looseObject(response),
    clientExtensionResults: z.looseObject({}).optional(),
    authenticatorAttachment: z.string().max(40).optional(),
  });

/** What `startRegistration()` of @simplewebauthn/browser answers (RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = credentialAnswer({
  clientDataJSON: b64url("client data"),
  attestationObject: b64url("attestation"),
  transports: z.array(z.string().max(40)).max(10).optional(),
}).meta({
  id: "PasskeyRegistrationResponse",
  description: "As `startRegistration()` of @simplewebauthn/browser answers it.",
});

/** What `startAuthentication()` of @simplewebauthn/browser answers (AuthenticationResponseJSON). */
export const passkeyAuthenticationResponseSchema = credentialAnswer({
  clientDataJSON: b64url("client data"),
  authenticatorData: b64url("authenticator data"),
  signature: b64url("signature"),
  userHandle: b64url("user handle", 200).optional(),
}).meta({
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

const credentialDescriptor = z.object({
  id: z.string().meta({ description: "The credential's id, base64url." }),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});
const extensions = z.object({ credProps: z.boolean().optional() }).optional();

/** For `startRegistration()` as `optionsJSON` (PublicKeyCredentialCreationOptionsJSON). */
export const passkeyCreationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal("public-key") })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    hints: z.array(z.string()).optional(),
    attestation: z.string().optional(),
    extensions,
  })
  .meta({ id: "PasskeyCreationOptions", description: "For `startRegistration()` as `optionsJSON`." });

/** For `startAuthentication()` as `optionsJSON` (PublicKeyCredentialRequestOptionsJSON). */
export const passkeyRequestOptionsSchema = z
  .object({
    challenge: z.string(),
    timeout: z.number().int().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(credentialDescriptor).optional(),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions,
  })
  .meta({ id: "PasskeyRequestOptions", description: "For `startAuthentication()` as `optionsJSON`." });
