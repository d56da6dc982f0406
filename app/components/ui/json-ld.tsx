import { useNonce } from "../../lib/nonce";

/** JSON for a <script> element: "<" written as \u003c so that no "</script>" can end it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** schema.org data for search engines; the JSON comes escaped (scriptJson) from the loader. */
export function JsonLd({ json }: { json: string }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      // The browser hides nonces from the DOM, so the hydrated value never matches the server's.
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped, built on the server
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}
