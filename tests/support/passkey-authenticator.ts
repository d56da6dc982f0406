import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

type Options = { challenge: string };

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64 = (data: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));
const counterBytes = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};

/**
 * A software authenticator for the integration tests (Chromium's virtual authenticator does the
 * same in the end-to-end test): a P-256 key, "none" attestation, answers built as a browser builds
 * them (clientDataJSON, authenticator data, CBOR, a DER signature), so the server's checks run on
 * real WebAuthn data.
 */
export function softAuthenticator(origin: string, rpID: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  const credentialId = randomBytes(32);
  let signCount = 0;

  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  return {
    id: b64(credentialId),
    /** The answer `startRegistration()` gives to the server's options. */
    register(options: Options, overrides: { origin?: string; rpID?: string } = {}) {
      const coseKey = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x)],
        [-3, isoBase64URL.toBuffer(jwk.y)],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(overrides.rpID ?? rpID),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        counterBytes(signCount),
        Buffer.alloc(16), // AAGUID: none
        idLength,
        credentialId,
        Buffer.from(isoCBOR.encode(coseKey)),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", new Uint8Array(authData)],
        ]),
      );
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key" as const,
        response: {
          clientDataJSON: b64(clientData("webauthn.create", options.challenge, overrides.origin)),
          attestationObject: b64(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
    /** The answer `startAuthentication()` gives; each use counts up, as a hardware key does. */
    authenticate(options: Options, overrides: { origin?: string; counter?: number } = {}) {
      signCount = overrides.counter ?? signCount + 1;
      const authData = Buffer.concat([sha256(rpID), Buffer.from([0x05]), counterBytes(signCount)]);
      const data = clientData("webauthn.get", options.challenge, overrides.origin);
      const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), privateKey);
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key" as const,
        response: {
          clientDataJSON: b64(data),
          authenticatorData: b64(authData),
          signature: b64(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}
