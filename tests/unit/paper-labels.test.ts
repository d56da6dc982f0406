import { describe, expect, it } from "vitest";
import { revisionLabel, versionLabel } from "../../core/library/library.values";

describe("a paper's revision and version labels (issue 30 point 10)", () => {
  it.each([
    ["1", "Rev. 1"],
    ["B", "Rev. B"],
    ["Rev. 1", "Rev. 1"],
    ["rev 2", "rev 2"],
    ["rev2", "rev2"],
    ["Revision C", "Revision C"],
    [" Rev. 3 ", "Rev. 3"],
    ["review draft", "Rev. review draft"],
  ])("labels revision %j as %j", (typed, shown) => {
    expect(revisionLabel(typed)).toBe(shown);
  });

  it("takes the public list's longer prefix the same way", () => {
    expect(revisionLabel("4", "Revision ")).toBe("Revision 4");
    expect(revisionLabel("Rev. 4", "Revision ")).toBe("Rev. 4");
  });

  it.each([
    ["2", "v2"],
    ["2.1", "v2.1"],
    ["v2", "v2"],
    ["Ver. 3", "Ver. 3"],
    ["Version 4", "Version 4"],
    ["vessel edition", "vvessel edition"],
  ])("labels version %j as %j", (typed, shown) => {
    expect(versionLabel(typed)).toBe(shown);
  });

  it("shows nothing for an empty value", () => {
    expect(revisionLabel(null)).toBeNull();
    expect(revisionLabel("  ")).toBeNull();
    expect(versionLabel(undefined)).toBeNull();
  });
});
