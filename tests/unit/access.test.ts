import { describe, expect, it } from "vitest";
import {
  type AccessSubject,
  accessKey,
  editsAnything,
  editsFor,
  editsGroups,
  type RoleName,
} from "../../core/access/access";

/** core/access: the one decision of who sees and who changes what (issue 36). */
const current = { id: 1, name: "Fjord Radio AS", current: true, primary: true };
const lapsed = { ...current, current: false };
const person = (role: RoleName, extra: Partial<AccessSubject> = {}): AccessSubject => ({
  user: { role: { name: role } },
  company: role === "member" ? current : null,
  ...extra,
});

describe("accessKey: what a shared answer may depend on", () => {
  it("keys members by the set of their groups, in any order", () => {
    expect(accessKey(null)).toBe("visitor");
    expect(accessKey(person("member"))).toBe("member");
    expect(accessKey(person("member", { groups: [7, 3] }))).toBe("member:3.7");
    expect(accessKey(person("member", { groups: [3, 7] }))).toBe(accessKey(person("member", { groups: [7, 3] })));
    expect(accessKey(person("member", { company: lapsed, groups: [3] }))).toBe("lapsed");
    expect(accessKey(person("editor", { groups: [3] }))).toBe("editor");
    expect(accessKey(person("admin"))).toBe("admin");
  });

  it("gives a chair a key of their own: a fellow member of the same groups never shares their answers", () => {
    const chair = accessKey(person("member", { groups: [3, 7], chairs: [3] }));
    const otherChair = accessKey(person("member", { groups: [3, 7], chairs: [7] }));
    const fellow = accessKey(person("member", { groups: [3, 7] }));
    expect(chair).toBe("member:3.7;chairs:3");
    expect(new Set([chair, otherChair, fellow]).size).toBe(3);
  });
});

describe("editsFor: whose content someone may change", () => {
  it("is everything for the secretariat, a chair's groups, nothing for others", () => {
    expect(editsFor(person("admin"))).toBe("all");
    expect(editsFor(person("editor"))).toBe("all");
    expect(editsFor(person("admin", { twoFactorSetupRequired: true }))).toEqual([]);
    expect(editsFor(person("member", { groups: [3, 7], chairs: [3] }))).toEqual([3]);
    expect(editsFor(person("member", { company: lapsed, groups: [3], chairs: [3] }))).toEqual([]);
    expect(editsFor(person("member", { groups: [3] }))).toEqual([]);
    expect(editsFor(null)).toEqual([]);
  });

  it("says whether anything, and whether a given item's groups, are theirs", () => {
    expect(editsAnything("all")).toBe(true);
    expect(editsAnything([3])).toBe(true);
    expect(editsAnything([])).toBe(false);
    expect(editsGroups("all", null)).toBe(true);
    expect(editsGroups([3], [3, 9])).toBe(true);
    expect(editsGroups([3], [9])).toBe(false);
    // Public and every member's content is not a group's: the secretariat's alone.
    expect(editsGroups([3], null)).toBe(false);
    expect(editsGroups([3], [])).toBe(false);
  });
});
