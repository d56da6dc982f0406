import fs from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 30 point 6 (decision 0036), with real files through the API: images of more than 40
 * megapixels and GIFs are refused wherever an image is uploaded; the library takes documents,
 * not an SVG (whatever it is called, with or without an XML declaration) nor a "PDF" that has
 * an HTML page before its header.
 */
let t: TestContext;
let admin: string;
let member: string;
let categoryId: number;

beforeAll(async () => {
  t = await createTestContext({ UPLOAD_MAX_BYTES: String(8 * 1024 * 1024) });
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
  const category = await call(t.app, "POST", "/api/dashboard/papers-categories", {
    token: admin,
    json: { name: "File checks" },
  });
  expect(category.status, category.text).toBe(201);
  categoryId = (category.json as { category: { id: number } }).category.id;
});
afterAll(async () => t.close());

const storedFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0);

/** A real PNG of one colour (small on disk, however many pixels). */
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#1c4a7d" } })
    .png({ compressionLevel: 9 })
    .toBuffer();

describe("images (issue 30 point 6)", () => {
  const imageRoutes = [
    { route: "/api/dashboard/images", field: "image", token: () => admin },
    { route: "/api/settings/profile/updateAvatar", field: "avatar", token: () => member },
  ];

  it.each(imageRoutes)(
    "refuses a 45.5 megapixel PNG at $route with 422 saying the limit, storing nothing",
    async ({ route, field, token }) => {
      const before = storedFiles(t.runtime.config.uploadsDir);
      const big = await png(7800, 5834);
      const res = await call(t.app, "POST", route, {
        token: token(),
        form: { [field]: new File([new Uint8Array(big)], "panorama.png", { type: "image/png" }) },
        multipart: true,
      });
      expect(res.status, res.text).toBe(422);
      expect((res.json as { errors: Record<string, string[]> }).errors[field]).toEqual([
        "The image is 45.5 megapixels (7800 × 5834); at most 40 are accepted. Scale it down and upload it again.",
      ]);
      expect(storedFiles(t.runtime.config.uploadsDir)).toBe(before);
    },
  );

  it("takes an image of exactly 40 megapixels", async () => {
    const res = await call(t.app, "POST", "/api/dashboard/images", {
      token: admin,
      form: { image: new File([new Uint8Array(await png(8000, 5000))], "wide.png", { type: "image/png" }) },
      multipart: true,
    });
    expect(res.status, res.text).toBe(201);
  }, 60_000);

  it.each(imageRoutes)(
    "refuses a real GIF at $route with 415 naming the accepted types",
    async ({ route, field, token }) => {
      const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff8800" } })
        .gif()
        .toBuffer();
      const res = await call(t.app, "POST", route, {
        token: token(),
        form: { [field]: new File([new Uint8Array(gif)], "logo.gif", { type: "image/gif" }) },
        multipart: true,
      });
      expect(res.status, res.text).toBe(415);
      expect((res.json as { errors: Record<string, string[]> }).errors[field]).toEqual([
        "The image must be a JPEG, PNG or WebP file.",
      ]);
    },
  );

  it("still takes JPEG, PNG and WebP", async () => {
    const source = sharp({ create: { width: 320, height: 200, channels: 3, background: "#336699" } });
    for (const [name, data] of [
      ["photo.jpg", await source.clone().jpeg().toBuffer()],
      ["chart.png", await source.clone().png().toBuffer()],
      ["photo.webp", await source.clone().webp().toBuffer()],
    ] as const) {
      const res = await call(t.app, "POST", "/api/dashboard/images", {
        token: admin,
        form: { image: new File([new Uint8Array(data)], name) },
        multipart: true,
      });
      expect(res.status, name).toBe(201);
    }
  });
});

describe("library files (issue 30 point 6)", () => {
  async function upload(name: string, bytes: Uint8Array | string, type = "application/octet-stream") {
    const form = new FormData();
    form.append("papers_category_id", String(categoryId));
    form.append("name", `Upload ${name}`);
    form.append("uploaded_file", new File([bytes as BlobPart], name, { type }));
    return call(t.app, "POST", "/api/dashboard/papers", { token: admin, body: form });
  }

  async function realPdf(): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText("Radar echoes at sea", { x: 50, y: 700, font });
    return doc.save();
  }

  const svgBody =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script></svg>';
  const refusedSvg: [string, string][] = [
    ["drawing.svg", svgBody],
    ["schema.xml", `<?xml version="1.0" encoding="UTF-8"?>\n${svgBody}`],
    [
      "schema.xsd",
      `<?xml version="1.0"?>\n<!-- a drawing -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n${svgBody}`,
    ],
    ["prefixed.xml", '<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></s:svg>'],
    ["renamed.xml", '<drawing xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></drawing>'],
    ["page.xml", '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>'],
    ["body.xml", '<body onload="alert(1)">hello</body>'],
  ];

  it.each(refusedSvg)("refuses %s (an SVG or a page as XML) with 415, storing nothing", async (name, text) => {
    const before = storedFiles(t.runtime.config.privateDir);
    const res = await upload(name, text, "application/xml");
    expect(res.status, res.text).toBe(415);
    expect((res.json as { errors: Record<string, string[]> }).errors.uploaded_file).toEqual([
      "SVG images and HTML pages are not taken by the library: upload the document as a PDF.",
    ]);
    expect(storedFiles(t.runtime.config.privateDir)).toBe(before);
  });

  it("refuses a PDF with an HTML page before its header, within 1024 bytes or further", async () => {
    const pdf = await realPdf();
    for (const html of [
      "<html><body><script>alert(1)</script></body></html>\n",
      "<div><script>alert(1)</script></div>\n",
      `<p>${"x".repeat(3000)}</p>\n`,
      "   \n",
    ]) {
      const bytes = new Uint8Array([...new TextEncoder().encode(html), ...pdf]);
      const res = await upload("report.pdf", bytes, "application/pdf");
      expect(res.status, html.slice(0, 20)).toBe(415);
      expect((res.json as { errors: Record<string, string[]> }).errors.uploaded_file[0]).toMatch(
        /^The file is not a PDF that starts with its %PDF- header/,
      );
    }
  });

  it("refuses a PDF after the end of an XML document's root, as a PDF with something before its header", async () => {
    const pdf = await realPdf();
    const xml = '<?xml version="1.0"?>\n<formats><format>Charts</format></formats>\n';
    const res = await upload("charts.xml", new Uint8Array([...new TextEncoder().encode(xml), ...pdf]));
    expect(res.status, res.text).toBe(415);
    expect((res.json as { errors: Record<string, string[]> }).errors.uploaded_file[0]).toMatch(
      /^The file is not a PDF that starts with its %PDF- header/,
    );
  });

  it("takes an XML document that only mentions %PDF- in its content, near its start or further in", async () => {
    for (const [name, text] of [
      [
        "formats.xml",
        '<?xml version="1.0"?>\n<formats><format name="PDF">A PDF file starts with %PDF-1.7 at byte 0.</format></formats>',
      ],
      [
        "noted.xsd",
        `<!-- Headers such as %PDF-2.0 are checked elsewhere. -->\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:annotation><xs:documentation>${"x".repeat(5000)} %PDF-</xs:documentation></xs:annotation></xs:schema>`,
      ],
      ["open.xml", `<log><entry>%PDF-1.4 seen</entry>${"<entry>more</entry>".repeat(20)}`],
    ]) {
      const res = await upload(name, text, "application/xml");
      expect(res.status, `${name}: ${res.text}`).toBe(201);
      expect((res.json as { paper: { file: { type: string } } }).paper.file.type).toBe("application/xml");
    }
  });

  it("refuses prose that mentions %PDF- for its type, not as a hidden PDF", async () => {
    const res = await upload("notes.txt", "Every PDF starts with %PDF-1.7.\n", "text/plain");
    expect(res.status).toBe(415);
    expect((res.json as { errors: Record<string, string[]> }).errors.uploaded_file).toEqual([
      "The file must be a PDF, Word (docx), Excel (xlsx), PowerPoint (pptx), XML, XSD or ZIP file.",
    ]);
  });

  it("takes a real PDF, an XML schema and an XML document in another namespace", async () => {
    const pdf = await upload("report.pdf", await realPdf(), "application/pdf");
    expect(pdf.status, pdf.text).toBe(201);
    expect((pdf.json as { paper: { file: { type: string } } }).paper.file.type).toBe("application/pdf");
    const xsd = await upload(
      "nmea.xsd",
      '<?xml version="1.0"?>\n<!-- Licensed to members -->\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="sentence"/></xs:schema>',
    );
    expect(xsd.status, xsd.text).toBe(201);
    expect((xsd.json as { paper: { file: { type: string } } }).paper.file.type).toBe("application/xml");
    const doc = await upload(
      "route.xml",
      // An XHTML fragment inside a data document is data: only the root decides.
      '<route xmlns="urn:masthead:route" xmlns:h="http://www.w3.org/1999/xhtml"><h:p>Leg one</h:p></route>',
    );
    expect(doc.status, doc.text).toBe(201);
  });

  it("keeps the paper's file private: the refused files left nothing in either storage", () => {
    const keys = fs.readdirSync(path.join(t.runtime.config.privateDir, "papers"));
    expect(keys.every((key) => /\.(pdf|xml|xsd)$/.test(key))).toBe(true);
    expect(keys.filter((key) => key.endsWith(".svg"))).toEqual([]);
  });
});
