import { describe, expect, it } from "vitest";
import { JOIN_THANKS, joinSchema, REGISTRATION_THANKS, requestKindOf, thanksFor } from "../../core/join/join.schema";
import { validate } from "../../lib/validation";

const VALID = {
  company_name: "Nordic Bridge Systems AS",
  representative_name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  phone_number: "+47 22 33 44 55",
};
const errorsOf = (input: Record<string, unknown>) => {
  const result = validate(joinSchema, input);
  return result.success ? {} : result.errors;
};

describe("join form rules (SPEC §5)", () => {
  it("requires every field with the spec's message, one message per field", () => {
    expect(errorsOf({})).toEqual({
      company_name: ["Company Name is required."],
      representative_name: ["Representative name is required."],
      email: ["Email is required."],
      phone_number: ["Phone number is required."],
    });
    expect(errorsOf({ company_name: "   ", representative_name: "\n", email: " ", phone_number: "  " })).toEqual({
      company_name: ["Company Name is required."],
      representative_name: ["Representative name is required."],
      email: ["Email is required."],
      phone_number: ["Phone number is required."],
    });
  });

  it("trims text and accepts a valid request", () => {
    const result = validate(joinSchema, { ...VALID, company_name: "  Nordic Bridge Systems AS " });
    expect(result.success && result.data.company_name).toBe("Nordic Bridge Systems AS");
  });

  it("checks the e-mail address", () => {
    for (const email of [
      "ingrid",
      "ingrid@",
      "@nordicbridge.example",
      "ingrid@nordicbridge",
      "in grid@x.example",
      "ingrid@nordic..example",
      "ingrid@.nordicbridge.example",
      "ingrid@nordicbridge.example.",
    ]) {
      expect(errorsOf({ ...VALID, email }), email).toEqual({ email: ["Email is not valid."] });
    }
    expect(errorsOf({ ...VALID, email: "first.last+join@sub.nordicbridge.example" })).toEqual({});
  });

  it("accepts 8 to 15 digits, hyphens and plus signs once spaces are removed", () => {
    const ok = ["12345678", "123456789012345", "+47 22 33 44 55", "0047-2233-44-55", " 1 2 3 4 5 6 7 8 ", "+-+-+-+-"];
    for (const phone_number of ok) expect(errorsOf({ ...VALID, phone_number }), phone_number).toEqual({});
    const wrong = ["1234567", "1234567890123456", "+47 22 33 44 5x", "(047) 22334455", "22.33.44.55", "phone12345"];
    for (const phone_number of wrong) {
      expect(errorsOf({ ...VALID, phone_number }), phone_number).toEqual({
        phone_number: ["Phone format is incorrect."],
      });
    }
  });

  it("refuses values that are not text and over-long ones", () => {
    expect(errorsOf({ ...VALID, company_name: 42 }).company_name).toEqual(["Company Name is required."]);
    expect(errorsOf({ ...VALID, representative_name: "x".repeat(201) }).representative_name).toHaveLength(1);
  });
});

describe("kind of request and the thank-you text (SPEC §8)", () => {
  it("treats meeting pages as registrations and everything else as joining", () => {
    expect(requestKindOf("/conference")).toBe("registration");
    expect(requestKindOf("/workshop")).toBe("registration");
    expect(requestKindOf("/events/annual-conference-2027")).toBe("registration");
    expect(requestKindOf("/dashboard/events/board-meeting-2027-01")).toBe("registration");
    expect(requestKindOf("/dashboard/events")).toBe("join");
    expect(requestKindOf("/members-join")).toBe("join");
    expect(requestKindOf("/")).toBe("join");
    expect(requestKindOf(null)).toBe("join");
  });

  it("thanks for a registration only where the path contains conference", () => {
    expect(thanksFor("/conference")).toBe(REGISTRATION_THANKS);
    expect(thanksFor("/events/annual-conference-2027")).toBe(REGISTRATION_THANKS);
    // Every meeting page registers (issue 32), not only paths that contain "conference".
    expect(thanksFor("/workshop")).toBe(REGISTRATION_THANKS);
    expect(thanksFor("/join")).toBe(JOIN_THANKS);
    expect(thanksFor("/history")).toBe("Your message was sent successfully. We'll get in touch with you soon.");
  });
});
