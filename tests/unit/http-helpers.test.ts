import { describe, expect, it } from "vitest";
import { formToObject } from "../../server/api/http";
import { negotiateEncoding } from "../../server/middleware/compress";

describe("negotiateEncoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["identity", null],
    ["*", "br"],
    [undefined, null],
  ])("%s → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("formToObject", () => {
  it("turns repeated and [] fields into arrays and drops _method", () => {
    const form = new FormData();
    form.append("title", "A");
    form.append("images[]", "1");
    form.append("images[]", "2");
    form.append("tag", "x");
    form.append("tag", "y");
    form.append("_method", "PATCH");
    expect(formToObject(form)).toEqual({ title: "A", images: ["1", "2"], tag: ["x", "y"] });
  });
});
