import { describe, expect, it } from "vitest";
import { relyingPartyOf } from "../../core/auth/passkeys.service";

/** Where passkeys work (decision 0076): https with a domain name, or localhost (a loopback address stands for it). */
describe("the passkeys' relying party", () => {
  it("is the host of an https address", () => {
    expect(relyingPartyOf("https://www.masthead.example")).toEqual({
      rpID: "www.masthead.example",
      origin: "https://www.masthead.example",
    });
  });
  it("is localhost for a loopback address, with its port", () => {
    expect(relyingPartyOf("http://127.0.0.1:3300")).toEqual({ rpID: "localhost", origin: "http://localhost:3300" });
    expect(relyingPartyOf("http://localhost:3000")).toEqual({ rpID: "localhost", origin: "http://localhost:3000" });
    expect(relyingPartyOf("http://[::1]:8080")).toEqual({ rpID: "localhost", origin: "http://localhost:8080" });
  });
  it("is none on plain http elsewhere, or at an IP address (browsers refuse both)", () => {
    expect(relyingPartyOf("http://masthead.example")).toBeNull();
    expect(relyingPartyOf("https://192.0.2.10")).toBeNull();
  });
});
