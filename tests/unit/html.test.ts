import { describe, expect, it } from "vitest";
import { escapeHtml, htmlToText, sanitizeRichText } from "../../lib/html";

describe("sanitizeRichText", () => {
  it.each([
    ["<p>Hi<script>alert(1)</script></p>", "<p>Hi</p>"],
    ['<img src="x.png" onerror="alert(1)">', '<img src="x.png" alt="" loading="lazy" />'],
    ['<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="//evil.example">x</a>', "<a>x</a>"],
    ['<iframe src="https://evil.example/x"></iframe>', ""],
    ['<p style="background:url(javascript:alert(1))">t</p>', "<p>t</p>"],
    ["<svg><script>alert(1)</script></svg>", ""],
    ['<form action="/x"><input name="a"></form>', ""],
    ['<object data="x.swf"></object>', ""],
  ])("removes the hostile parts of %s", (input, expected) => {
    expect(sanitizeRichText(input)).toBe(expected);
  });

  it("keeps the content an editor writes", () => {
    const html =
      '<h2>Title</h2><p><strong>Bold</strong> <em>it</em> <a href="https://iec.ch" target="_blank">IEC</a></p><ul><li>one</li></ul><blockquote>q</blockquote>';
    expect(sanitizeRichText(html)).toBe(
      '<h2>Title</h2><p><strong>Bold</strong> <em>it</em> <a href="https://iec.ch" target="_blank" rel="noopener noreferrer">IEC</a></p><ul><li>one</li></ul><blockquote>q</blockquote>',
    );
    expect(sanitizeRichText('<iframe src="https://www.youtube-nocookie.com/embed/abc" title="v"></iframe>')).toContain(
      'src="https://www.youtube-nocookie.com/embed/abc"',
    );
  });
});

describe("image srcset", () => {
  it("drops a srcset (and sizes) that arrives on an image from elsewhere", () => {
    const out = sanitizeRichText(
      '<img src="https://cdn.example/a.png" srcset="https://tracker.example/b.png 2x" sizes="100vw" alt="A">',
    );
    expect(out).toContain('src="https://cdn.example/a.png"');
    expect(out).not.toContain("srcset");
    expect(out).not.toContain("sizes");
  });
});

describe("htmlToText and escapeHtml", () => {
  it("reads the text out of markup", () => {
    expect(htmlToText("<h2>S-421</h2><p>Route&nbsp;exchange &amp; more</p><script>x()</script>")).toBe(
      "S-421 Route exchange & more",
    );
    expect(escapeHtml(`<a href="x">'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&lt;/a&gt;");
  });
});

describe("images' alt text in rich text (decision 0041)", () => {
  it('keeps an image\'s alt text and gives one without any alt=""', () => {
    expect(sanitizeRichText('<img src="/a.png" alt="A radar screen">')).toContain('alt="A radar screen"');
    expect(sanitizeRichText('<img src="/a.png">')).toContain('alt=""');
  });
});
