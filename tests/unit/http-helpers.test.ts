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

describe("AppError across bundle copies", () => {
  it("is recognised by instanceof even when created by another copy of the module", async () => {
    const { AppError } = await import("../../lib/errors");
    // A second module instance, as the Vite-built app bundle has.
    const specifier = "../../lib/errors.ts?copy";
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import("../../lib/errors");
    expect(copy.AppError).not.toBe(AppError);
    const error = new copy.AppError("unauthorized", "nope");
    expect(error instanceof AppError).toBe(true);
    expect(new Error("plain") instanceof AppError).toBe(false);
    expect((null as unknown) instanceof AppError).toBe(false);
  });
});
