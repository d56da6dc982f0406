import { afterEach, describe, expect, it, vi } from "vitest";
import { setFlash, takeFlash } from "../../app/lib/flash.server";

const session = { token: "session-token-of-the-admin", secure: false };
const requestWith = (setCookie: string) =>
  new Request("http://localhost/manage-news", { headers: { cookie: setCookie.split(";")[0] } });

afterEach(() => {
  vi.useRealTimers();
});

describe("flash messages", () => {
  it("carry a message to the next page of the same session, once", () => {
    const flash = takeFlash(requestWith(setFlash("Saved “Harbour news”.", session)), session);
    expect(flash.message).toBe("Saved “Harbour news”.");
    expect(new Headers(flash.headers).get("set-cookie")).toMatch(/^flash=; Path=\/; Max-Age=0/);
  });

  it("are refused when forged, changed, from another session or stale", () => {
    const genuine = setFlash("Saved.", session).split(";")[0];
    const [payload, signature] = genuine.slice("flash=".length).split(".");
    const forged = Buffer.from(
      JSON.stringify({ message: "Your account is suspended", expires: Date.now() + 60_000 }),
    ).toString("base64url");
    expect(takeFlash(requestWith(`flash=${forged}.${signature}`), session).message).toBeNull();
    expect(takeFlash(requestWith(`flash=${payload}.AAAA`), session).message).toBeNull();
    expect(takeFlash(requestWith(genuine), { token: "someone-else", secure: false }).message).toBeNull();
    expect(takeFlash(requestWith(genuine), { token: null, secure: false }).message).toBeNull();
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    expect(takeFlash(requestWith(genuine), session).message).toBeNull();
  });
});
