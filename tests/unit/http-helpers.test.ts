import { describe, expect, it } from "vitest";
import { FORM_LIMITS, parseBody } from "../../lib/request-body";
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

describe("parseBody", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://test.invalid/", { method: "POST", body, headers });

  it("turns repeated and [] fields into arrays, keeps files as File and takes _method out", async () => {
    const form = new FormData();
    form.append("_method", "PATCH");
    form.append("title", "A");
    form.append("images[]", new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" }));
    form.append("images[]", new File([new Uint8Array([4])], "b.png", { type: "image/png" }));
    form.append("tag", "x");
    form.append("tag", "y");
    form.append("empty", new File([], "", { type: "application/octet-stream" }));
    const { body, method } = await parseBody(post(form));
    expect(method).toBe("PATCH");
    expect(body.title).toBe("A");
    expect(body.tag).toEqual(["x", "y"]);
    const images = body.images as File[];
    expect(images.map((file) => [file.name, file.size])).toEqual([
      ["a.png", 3],
      ["b.png", 1],
    ]);
    expect((body.empty as File).size).toBe(0);
    expect("_method" in body).toBe(false);
  });

  it("reads urlencoded and JSON bodies the same way", async () => {
    const form = await parseBody(
      post("a=1&a=2&b%5B%5D=3&_method=DELETE", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(form).toEqual({ body: { a: ["1", "2"], b: ["3"] }, method: "DELETE" });
    const json = await parseBody(
      post(JSON.stringify({ _method: "PUT", x: 1 }), { "content-type": "application/json" }),
    );
    expect(json).toEqual({ body: { x: 1 }, method: "PUT" });
  });

  it("refuses a form of too many parts, fields or files, and over-long field names, with 413", async () => {
    const manyParts = new URLSearchParams();
    for (let i = 0; i <= FORM_LIMITS.fields; i++) manyParts.append(`f${i}`, "");
    await expect(
      parseBody(post(manyParts.toString(), { "content-type": "application/x-www-form-urlencoded" })),
    ).rejects.toMatchObject({ status: 413 });
    const manyFiles = new FormData();
    for (let i = 0; i <= FORM_LIMITS.files; i++) manyFiles.append("images[]", new File(["x"], `${i}.png`));
    await expect(parseBody(post(manyFiles))).rejects.toMatchObject({ status: 413 });
    const longName = new FormData();
    longName.append("n".repeat(FORM_LIMITS.fieldNameSize + 1), "x");
    await expect(parseBody(post(longName))).rejects.toMatchObject({ status: 413 });
  });

  it("answers malformed bodies with 400 and other content types with 415", async () => {
    await expect(parseBody(post("{nope", { "content-type": "application/json" }))).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      parseBody(post("--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" })),
    ).rejects.toMatchObject({ status: 400 });
    await expect(parseBody(post("<a/>", { "content-type": "application/xml" }))).rejects.toMatchObject({ status: 415 });
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
