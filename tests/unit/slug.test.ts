import { describe, expect, it } from "vitest";
import { slugify } from "../../lib/slug";
import { cleanTitle } from "../../lib/text";

describe("cleanTitle", () => {
  it("stores one form of a title: NFC, no controls or bidi formatting, single spaces", () => {
    expect(cleanTitle("Cafe\u0301")).toBe("Caf\u00e9");
    expect(cleanTitle("  Annual\tmeeting\r\n2027 ")).toBe("Annual meeting 2027");
    expect(cleanTitle("a\u0000b\u001bc\u0085d\u009fe")).toBe("abcde");
    expect(cleanTitle("\u202Aone\u202B\u202C\u202D\u202E \u2066two\u2067\u2068\u2069 \u200Ethree\u200F")).toBe(
      "one two three",
    );
    // Joiners inside emoji sequences and scripts stay.
    expect(cleanTitle("👩\u200D🔬 lab")).toBe("👩\u200D🔬 lab");
  });
});

describe("slugify", () => {
  it("transliterates where a mapping exists", () => {
    expect(slugify("Café crème")).toBe("cafe-creme");
    expect(slugify("Новости")).toBe("novosti");
    expect(slugify("Αθήνα 2027")).toBe("athina-2027");
    expect(slugify("Łódź harbour")).toBe("lodz-harbour");
  });

  it("gives a title with nothing to transliterate a short stable slug, the same every time", () => {
    const ship = slugify("🚢");
    expect(ship).toMatch(/^post-[0-9a-z]{7}$/);
    expect(slugify("🚢")).toBe(ship);
    expect(slugify(" 🚢 ")).toBe(ship);
    expect(slugify("..")).not.toBe(ship);
    expect(slugify("..", "page")).toMatch(/^page-[0-9a-z]{7}$/);
  });

  it("is at most 80 characters and never ends in a hyphen", () => {
    const slug = slugify(`${"word ".repeat(40)}end`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("-")).toBe(false);
  });
});
