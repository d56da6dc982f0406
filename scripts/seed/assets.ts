import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { escapeXml, hashString, random, slugify } from "./util";

/**
 * Generated demo files: scenic JPEGs composed from SVG, company logos and
 * small PDFs. Nothing is fetched from the network; every file is drawn here.
 */

export type StoredImage = { key: string; width: number; height: number };

export type UploadFolder = "news" | "meetings" | "sponsors" | "members" | "categories" | "papers";

/** Writes files under the uploads folder and remembers them, so a failed seed can remove them again. */
export class UploadWriter {
  readonly written: string[] = [];

  constructor(private readonly uploadsDir: string) {}

  /** A storage key such as `news/3fa9c1-annual-conference-opens.jpg`. */
  key(folder: UploadFolder, name: string, ext: string): string {
    const slug = slugify(name).slice(0, 60).replace(/-+$/, "") || "file";
    return `${folder}/${randomBytes(3).toString("hex")}-${slug}.${ext}`;
  }

  async write(key: string, data: Uint8Array): Promise<void> {
    const file = path.join(this.uploadsDir, ...key.split("/"));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, data);
    this.written.push(file);
  }

  /** Files stored under the uploads folder by someone else (storeImage), removed with the rest. */
  remember(keys: readonly string[]): void {
    for (const key of keys) this.written.push(path.join(this.uploadsDir, ...key.split("/")));
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.written.map((file) => fs.rm(file, { force: true })));
    this.written.length = 0;
  }
}

// ---------------------------------------------------------------------------
// Colour palettes for the scenes

type Palette = {
  skyTop: string;
  skyBottom: string;
  sun: string;
  seaTop: string;
  seaBottom: string;
  accent: string;
  land: string;
  night: boolean;
};

const PALETTES: Palette[] = [
  {
    skyTop: "#14284b",
    skyBottom: "#f2a65a",
    sun: "#ffe0b0",
    seaTop: "#2c4f72",
    seaBottom: "#0a1a2e",
    accent: "#f2a65a",
    land: "#0d1b2c",
    night: false,
  },
  {
    skyTop: "#3f7fb5",
    skyBottom: "#d3eaf6",
    sun: "#fffbe6",
    seaTop: "#2d6e9c",
    seaBottom: "#0b2f4f",
    accent: "#8fd6ff",
    land: "#1c3a52",
    night: false,
  },
  {
    skyTop: "#24173a",
    skyBottom: "#e5735a",
    sun: "#ffc29a",
    seaTop: "#3b2d4d",
    seaBottom: "#110b1c",
    accent: "#ff9a76",
    land: "#140e22",
    night: false,
  },
  {
    skyTop: "#040a18",
    skyBottom: "#1d3f63",
    sun: "#e9f0f7",
    seaTop: "#10294a",
    seaBottom: "#020812",
    accent: "#5ad1c8",
    land: "#030912",
    night: true,
  },
  {
    skyTop: "#0e4a5a",
    skyBottom: "#a9dbdc",
    sun: "#f4fbf6",
    seaTop: "#1b6b77",
    seaBottom: "#062830",
    accent: "#3fd0c1",
    land: "#0a2b33",
    night: false,
  },
  {
    skyTop: "#34444c",
    skyBottom: "#9fb1ba",
    sun: "#f1f4f5",
    seaTop: "#43565f",
    seaBottom: "#172126",
    accent: "#ffbf3c",
    land: "#182328",
    night: false,
  },
  {
    skyTop: "#2f4e78",
    skyBottom: "#ffd27a",
    sun: "#fff3cf",
    seaTop: "#2b4a6e",
    seaBottom: "#0c1a2d",
    accent: "#ffd27a",
    land: "#0f1e31",
    night: false,
  },
  {
    skyTop: "#0a2142",
    skyBottom: "#8aa8c6",
    sun: "#eef4f0",
    seaTop: "#12305a",
    seaBottom: "#05132a",
    accent: "#e8ab5d",
    land: "#07152a",
    night: true,
  },
];

const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

function palette(index: number): Palette {
  return PALETTES[((index % PALETTES.length) + PALETTES.length) % PALETTES.length];
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

// ---------------------------------------------------------------------------
// Text helpers

/** Greedy word wrap by an estimated glyph width (bold sans ≈ 0.6 em). */
function wrap(text: string, maxWidth: number, fontSize: number, ratio = 0.6): string[] {
  const maxChars = Math.max(8, Math.floor(maxWidth / (fontSize * ratio)));
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (!line) line = word;
    else if (`${line} ${word}`.length <= maxChars) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The title, label and subtitle over a dark gradient at the bottom of a scene. */
function caption(
  width: number,
  height: number,
  text: { label: string; title: string; subtitle?: string },
  accent: string,
): string {
  const margin = Math.round(width * 0.05);
  // Short titles are set larger when they still fit on one line.
  let size = Math.round(width / 22);
  let lines = wrap(text.title, width * 0.78, size);
  if (lines.length > 1) {
    size = Math.round(width / 27);
    lines = wrap(text.title, width * 0.78, size);
  }
  while (lines.length > 3 && size > 30) {
    size -= 4;
    lines = wrap(text.title, width * 0.78, size);
  }
  if (lines.length > 3) lines = [...lines.slice(0, 2), `${lines.slice(2).join(" ").slice(0, 40)}…`];
  const subSize = Math.round(size * 0.48);
  const labelSize = Math.round(size * 0.36);
  const lineHeight = Math.round(size * 1.18);
  let y = height - margin - (text.subtitle ? subSize * 1.9 : 0);
  const titleTop = y - (lines.length - 1) * lineHeight;
  const labelY = titleTop - size * 1.05;
  const shadeTop = Math.max(0, labelY - size * 2.2);
  const out: string[] = [
    `<defs><linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="0.3" stop-color="#020814" stop-opacity="0.55"/><stop offset="1" stop-color="#020814" stop-opacity="0.85"/></linearGradient></defs>`,
    `<rect x="0" y="${f(shadeTop)}" width="${width}" height="${f(height - shadeTop)}" fill="url(#shade)"/>`,
    `<rect x="${margin}" y="${f(labelY - labelSize * 0.95)}" width="${Math.round(size * 0.9)}" height="${Math.max(4, Math.round(size * 0.09))}" fill="${accent}"/>`,
    `<text x="${margin}" y="${f(labelY + labelSize * 0.4)}" font-family="${FONT}" font-size="${labelSize}" font-weight="bold" letter-spacing="${f(labelSize * 0.18)}" fill="${accent}">${escapeXml(text.label.toUpperCase())}</text>`,
  ];
  lines.forEach((line, i) => {
    out.push(
      `<text x="${margin}" y="${f(titleTop + i * lineHeight)}" font-family="${FONT}" font-size="${size}" font-weight="bold" fill="#ffffff">${escapeXml(line)}</text>`,
    );
  });
  if (text.subtitle) {
    y += subSize * 1.75;
    out.push(
      `<text x="${margin}" y="${f(y)}" font-family="${FONT}" font-size="${subSize}" fill="#e3ecf4" fill-opacity="0.92">${escapeXml(text.subtitle)}</text>`,
    );
  }
  return out.join("");
}

/** The small wordmark in the top left corner. */
function wordmark(width: number, colour = "#ffffff"): string {
  const s = width / 1600;
  const x = 80 * s;
  const y = 78 * s;
  return `<g transform="translate(${f(x)},${f(y)}) scale(${f(s)})" fill="${colour}" fill-opacity="0.9"><rect x="0" y="-38" width="4" height="46"/><path d="M6,-38 L34,-27 L6,-16 Z"/><path d="M-10,8 L44,8 L36,16 L-2,16 Z"/><text x="58" y="4" font-family="${FONT}" font-size="26" font-weight="bold" letter-spacing="6">MASTHEAD</text></g>`;
}

// ---------------------------------------------------------------------------
// Scene elements

function containerShip(x: number, y: number, s: number, fill: string, rnd: () => number): string {
  const stacks: string[] = [];
  for (let i = 0; i < 15; i++) {
    const h = 9 * (2 + Math.floor(rnd() * 4));
    stacks.push(`<rect x="${70 + i * 20}" y="${-34 - h}" width="18" height="${h}"/>`);
  }
  return `<g transform="translate(${f(x)},${f(y)}) scale(${f(s)})" fill="${fill}"><path d="M0,-34 L420,-44 L398,0 L14,0 Z"/>${stacks.join("")}<rect x="14" y="-100" width="40" height="66"/><rect x="6" y="-108" width="56" height="10"/><rect x="22" y="-128" width="16" height="20"/><rect x="44" y="-146" width="3" height="38"/><rect x="34" y="-148" width="24" height="4"/></g>`;
}

function tanker(x: number, y: number, s: number, fill: string): string {
  return `<g transform="translate(${f(x)},${f(y)}) scale(${f(s)})" fill="${fill}"><path d="M0,-26 L440,-30 L416,0 L10,0 Z"/><rect x="10" y="-84" width="46" height="58"/><rect x="2" y="-92" width="62" height="9"/><rect x="26" y="-116" width="14" height="24"/><rect x="50" y="-130" width="3" height="38"/><rect x="40" y="-132" width="24" height="4"/><rect x="80" y="-34" width="320" height="8"/><rect x="120" y="-44" width="6" height="10"/><rect x="200" y="-44" width="6" height="10"/><rect x="280" y="-44" width="6" height="10"/><rect x="360" y="-44" width="6" height="10"/><rect x="392" y="-60" width="3" height="30"/></g>`;
}

function yacht(x: number, y: number, s: number, fill: string): string {
  return `<g transform="translate(${f(x)},${f(y)}) scale(${f(s)})" fill="${fill}"><path d="M0,-14 L150,-14 L136,0 L12,0 Z"/><rect x="70" y="-190" width="3" height="176"/><path d="M76,-186 L76,-22 L140,-22 Z"/><path d="M67,-170 L67,-22 L14,-22 Z" fill-opacity="0.85"/></g>`;
}

function lighthouse(x: number, y: number, s: number, fill: string, beam: string): string {
  return `<g transform="translate(${f(x)},${f(y)}) scale(${f(s)})"><path d="M-12,-170 L-260,-230 L-260,-110 Z" fill="${beam}" fill-opacity="0.16"/><g fill="${fill}"><path d="M-90,0 Q-60,-40 -20,-30 Q20,-50 70,-20 Q100,-10 120,0 Z"/><path d="M-18,-30 L-12,-150 L12,-150 L18,-30 Z"/><rect x="-16" y="-158" width="32" height="8"/><rect x="-10" y="-180" width="20" height="22"/><path d="M-13,-180 L0,-196 L13,-180 Z"/></g><circle cx="0" cy="-169" r="6" fill="${beam}"/></g>`;
}

function waves(width: number, horizon: number, height: number, colour: string, rnd: () => number, rows = 16): string {
  const out: string[] = [];
  for (let j = 1; j <= rows; j++) {
    const t = j / rows;
    const y = horizon + (height - horizon) * t ** 1.6;
    const wl = 40 + 260 * t;
    const amp = 1.5 + 9 * t;
    const start = -rnd() * wl;
    let d = `M${f(start)},${f(y)}`;
    for (let x = start; x < width + wl; x += wl) {
      d += ` q${f(wl / 4)},${f(-amp)} ${f(wl / 2)},0 t${f(wl / 2)},0`;
    }
    out.push(
      `<path d="${d}" fill="none" stroke="${colour}" stroke-opacity="${f(0.06 + 0.12 * t)}" stroke-width="${f(1 + 2 * t)}"/>`,
    );
  }
  return out.join("");
}

function sunReflection(cx: number, horizon: number, colour: string, rnd: () => number): string {
  const out: string[] = [];
  for (let k = 0; k < 10; k++) {
    const y = horizon + 8 + k * (14 + k * 4);
    const rx = 70 - k * 4 + rnd() * 30;
    out.push(
      `<ellipse cx="${f(cx + (rnd() - 0.5) * 20)}" cy="${f(y)}" rx="${f(rx)}" ry="${f(2 + k * 0.4)}" fill="${colour}" fill-opacity="${f(0.45 - k * 0.035)}"/>`,
    );
  }
  return out.join("");
}

function stars(width: number, height: number, rnd: () => number, count = 90): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      `<circle cx="${f(rnd() * width)}" cy="${f(rnd() * height)}" r="${f(0.6 + rnd() * 1.4)}" fill="#fff" fill-opacity="${f(0.3 + rnd() * 0.6)}"/>`,
    );
  }
  return out.join("");
}

function skyAndSea(width: number, height: number, horizon: number, p: Palette): string {
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyTop}"/><stop offset="1" stop-color="${p.skyBottom}"/></linearGradient><linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.seaTop}"/><stop offset="1" stop-color="${p.seaBottom}"/></linearGradient><radialGradient id="glow"><stop offset="0" stop-color="${p.sun}" stop-opacity="0.9"/><stop offset="0.25" stop-color="${p.sun}" stop-opacity="0.35"/><stop offset="1" stop-color="${p.sun}" stop-opacity="0"/></radialGradient></defs><rect width="${width}" height="${horizon}" fill="url(#sky)"/><rect y="${f(horizon)}" width="${width}" height="${f(height - horizon)}" fill="url(#sea)"/>`;
}

/** A smooth closed blob through jittered points around a centre (Catmull-Rom to Bézier). */
function blob(cx: number, cy: number, rx: number, ry: number, noise: number[], scale = 1): string {
  const pts = noise.map((n, i) => {
    const a = (i / noise.length) * Math.PI * 2;
    return [cx + Math.cos(a) * rx * n * scale, cy + Math.sin(a) * ry * n * scale];
  });
  const count = pts.length;
  let d = `M${f(pts[0][0])},${f(pts[0][1])}`;
  for (let i = 0; i < count; i++) {
    const p0 = pts[(i - 1 + count) % count];
    const p1 = pts[i];
    const p2 = pts[(i + 1) % count];
    const p3 = pts[(i + 2) % count];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return `${d} Z`;
}

// ---------------------------------------------------------------------------
// Scenes. Each returns the SVG body (without the caption) for a width × height canvas.

type Scene = (width: number, height: number, p: Palette, rnd: () => number) => string;

const horizonScene: Scene = (width, height, p, rnd) => {
  const horizon = height * 0.6;
  const sunX = width * (0.55 + rnd() * 0.3);
  const sunY = horizon - height * (0.08 + rnd() * 0.16);
  const s = width / 1600;
  const hull = p.land;
  const kind = Math.floor(rnd() * 3);
  const shipX = width * (0.1 + rnd() * 0.25);
  const ship =
    kind === 0
      ? containerShip(shipX, horizon + 4 * s, 0.95 * s, hull, rnd)
      : kind === 1
        ? tanker(shipX, horizon + 4 * s, 0.9 * s, hull)
        : yacht(shipX + 120 * s, horizon + 6 * s, 1.1 * s, hull);
  const farShip = containerShip(width * 0.8, horizon + 1, 0.22 * s, hull, rnd);
  const headland = `<path d="M${f(width)},${f(horizon)} L${f(width)},${f(horizon - 70 * s)} Q${f(width - 160 * s)},${f(horizon - 120 * s)} ${f(width - 300 * s)},${f(horizon - 60 * s)} T${f(width - 520 * s)},${f(horizon)} Z" fill="${p.land}" fill-opacity="0.92"/>`;
  return [
    skyAndSea(width, height, horizon, p),
    p.night ? stars(width, horizon * 0.9, rnd) : "",
    `<circle cx="${f(sunX)}" cy="${f(sunY)}" r="${f(200 * s)}" fill="url(#glow)"/>`,
    `<circle cx="${f(sunX)}" cy="${f(sunY)}" r="${f(38 * s)}" fill="${p.sun}"/>`,
    headland,
    sunReflection(sunX, horizon, p.sun, rnd),
    waves(width, horizon, height, "#ffffff", rnd),
    farShip,
    ship,
  ].join("");
};

const radarScene: Scene = (width, height, p, rnd) => {
  const cx = width * 0.66;
  const cy = height * 0.5;
  const r = height * 0.44;
  const out: string[] = [
    `<defs><radialGradient id="bg" cx="0.66" cy="0.5" r="0.8"><stop offset="0" stop-color="${p.seaTop}"/><stop offset="1" stop-color="#01060d"/></radialGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
  ];
  for (let gx = 0; gx < width; gx += 80) {
    out.push(`<line x1="${gx}" y1="0" x2="${gx}" y2="${height}" stroke="${p.accent}" stroke-opacity="0.05"/>`);
  }
  for (let gy = 0; gy < height; gy += 80) {
    out.push(`<line x1="0" y1="${gy}" x2="${width}" y2="${gy}" stroke="${p.accent}" stroke-opacity="0.05"/>`);
  }
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="#000" fill-opacity="0.35"/>`);
  // Land echoes: a coastline blob partly inside the display.
  const noise = Array.from({ length: 12 }, () => 0.75 + rnd() * 0.5);
  out.push(
    `<clipPath id="scope"><circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}"/></clipPath><g clip-path="url(#scope)"><path d="${blob(cx + r * 0.75, cy - r * 0.55, r * 0.6, r * 0.45, noise)}" fill="${p.accent}" fill-opacity="0.28"/><path d="${blob(cx - r * 0.55, cy + r * 0.7, r * 0.35, r * 0.25, noise.slice().reverse())}" fill="${p.accent}" fill-opacity="0.22"/>`,
  );
  // Sweep: thin wedges with decreasing opacity behind the sweep line.
  const sweep = rnd() * Math.PI * 2;
  for (let k = 0; k < 14; k++) {
    const a1 = sweep - (k * Math.PI) / 90;
    const a2 = a1 - Math.PI / 90;
    out.push(
      `<path d="M${f(cx)},${f(cy)} L${f(cx + Math.cos(a1) * r)},${f(cy + Math.sin(a1) * r)} A${f(r)},${f(r)} 0 0 0 ${f(cx + Math.cos(a2) * r)},${f(cy + Math.sin(a2) * r)} Z" fill="${p.accent}" fill-opacity="${f(0.32 * (1 - k / 14))}"/>`,
    );
  }
  out.push("</g>");
  for (let i = 1; i <= 4; i++) {
    out.push(
      `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f((r * i) / 4)}" fill="none" stroke="${p.accent}" stroke-opacity="${i === 4 ? 0.7 : 0.3}" stroke-width="${i === 4 ? 3 : 1.5}"/>`,
    );
  }
  out.push(
    `<line x1="${f(cx - r)}" y1="${f(cy)}" x2="${f(cx + r)}" y2="${f(cy)}" stroke="${p.accent}" stroke-opacity="0.25"/>`,
    `<line x1="${f(cx)}" y1="${f(cy - r)}" x2="${f(cx)}" y2="${f(cy + r)}" stroke="${p.accent}" stroke-opacity="0.25"/>`,
  );
  for (let deg = 0; deg < 360; deg += 5) {
    const a = (deg * Math.PI) / 180;
    const inner = r - (deg % 30 === 0 ? 22 : 10);
    out.push(
      `<line x1="${f(cx + Math.cos(a) * inner)}" y1="${f(cy + Math.sin(a) * inner)}" x2="${f(cx + Math.cos(a) * r)}" y2="${f(cy + Math.sin(a) * r)}" stroke="${p.accent}" stroke-opacity="0.7" stroke-width="2"/>`,
    );
  }
  out.push(
    `<line x1="${f(cx)}" y1="${f(cy)}" x2="${f(cx + Math.cos(sweep) * r)}" y2="${f(cy + Math.sin(sweep) * r)}" stroke="${p.accent}" stroke-width="3"/>`,
  );
  // Targets with short vectors.
  for (let i = 0; i < 9; i++) {
    const a = rnd() * Math.PI * 2;
    const d = r * (0.2 + rnd() * 0.7);
    const x = cx + Math.cos(a) * d;
    const y = cy + Math.sin(a) * d;
    const v = rnd() * Math.PI * 2;
    out.push(
      `<circle cx="${f(x)}" cy="${f(y)}" r="9" fill="none" stroke="#ffffff" stroke-opacity="0.8" stroke-width="2"/><line x1="${f(x)}" y1="${f(y)}" x2="${f(x + Math.cos(v) * 40)}" y2="${f(y + Math.sin(v) * 40)}" stroke="#ffffff" stroke-opacity="0.7" stroke-width="2" stroke-dasharray="5 4"/>`,
    );
  }
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="6" fill="${p.accent}"/>`);
  return out.join("");
};

const chartScene: Scene = (width, height, _p, rnd) => {
  const s = width / 1600;
  const out: string[] = [
    `<rect width="${width}" height="${height}" fill="#eef5f8"/>`,
    `<rect width="${width}" height="${height}" fill="#cfe6f1" fill-opacity="0.6"/>`,
  ];
  const lands = [
    { cx: width * (0.76 + rnd() * 0.12), cy: height * (0.06 + rnd() * 0.1), rx: width * 0.32, ry: height * 0.36 },
    { cx: width * (0.33 + rnd() * 0.08), cy: height * (0.2 + rnd() * 0.06), rx: width * 0.1, ry: height * 0.11 },
    { cx: width * (0.55 + rnd() * 0.06), cy: height * (0.5 + rnd() * 0.05), rx: width * 0.05, ry: height * 0.06 },
  ];
  for (const land of lands) {
    const noise = Array.from({ length: 14 }, () => 0.78 + rnd() * 0.4);
    out.push(
      `<path d="${blob(land.cx, land.cy, land.rx, land.ry, noise, 1.5)}" fill="#ffffff" fill-opacity="0.55"/>`,
      `<path d="${blob(land.cx, land.cy, land.rx, land.ry, noise, 1.5)}" fill="none" stroke="#6f9fc0" stroke-width="${f(1.4 * s)}" stroke-dasharray="${f(8 * s)} ${f(6 * s)}"/>`,
      `<path d="${blob(land.cx, land.cy, land.rx, land.ry, noise, 1.25)}" fill="#b9dcec"/>`,
      `<path d="${blob(land.cx, land.cy, land.rx, land.ry, noise, 1.25)}" fill="none" stroke="#6f9fc0" stroke-width="${f(1.2 * s)}"/>`,
      `<path d="${blob(land.cx, land.cy, land.rx, land.ry, noise)}" fill="#f0e2bd" stroke="#9d8a5c" stroke-width="${f(2 * s)}"/>`,
    );
  }
  for (let i = 0; i < 60; i++) {
    const x = rnd() * width;
    const y = rnd() * height * 0.7;
    out.push(
      `<text x="${f(x)}" y="${f(y)}" font-family="${FONT}" font-size="${f(15 * s)}" font-style="italic" fill="#5d7f95" fill-opacity="0.55">${Math.floor(5 + rnd() * 60)}</text>`,
    );
  }
  for (let gx = 100 * s; gx < width; gx += 250 * s) {
    out.push(
      `<line x1="${f(gx)}" y1="0" x2="${f(gx)}" y2="${height}" stroke="#4f7690" stroke-opacity="0.35" stroke-width="${f(s)}"/>`,
    );
  }
  for (let gy = 90 * s; gy < height; gy += 220 * s) {
    out.push(
      `<line x1="0" y1="${f(gy)}" x2="${width}" y2="${f(gy)}" stroke="#4f7690" stroke-opacity="0.35" stroke-width="${f(s)}"/>`,
    );
  }
  const route = [
    [0.06, 0.62],
    [0.22, 0.52],
    [0.42, 0.6],
    [0.52, 0.4],
    [0.7, 0.5],
    [0.9, 0.62],
  ].map(([x, y]) => [x * width, (y + (rnd() - 0.5) * 0.06) * height]);
  out.push(
    `<polyline points="${route.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}" fill="none" stroke="#ffffff" stroke-width="${f(9 * s)}" stroke-opacity="0.7"/>`,
    `<polyline points="${route.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}" fill="none" stroke="#d2462c" stroke-width="${f(4 * s)}"/>`,
  );
  route.forEach(([x, y], i) => {
    out.push(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(11 * s)}" fill="#ffffff" stroke="#d2462c" stroke-width="${f(4 * s)}"/><text x="${f(x + 16 * s)}" y="${f(y - 14 * s)}" font-family="${FONT}" font-size="${f(18 * s)}" font-weight="bold" fill="#a8321d">WP${i + 1}</text>`,
    );
  });
  // Compass rose.
  const rx = width * 0.12;
  const ry = height * 0.3;
  const rr = 70 * s;
  out.push(
    `<g transform="translate(${f(rx)},${f(ry)})" stroke="#6a4c93" fill="none" stroke-opacity="0.8"><circle r="${f(rr)}" stroke-width="${f(2 * s)}"/><circle r="${f(rr * 0.8)}" stroke-width="${f(s)}"/><path d="M0,${f(-rr)} L${f(rr * 0.12)},0 L0,${f(rr)} L${f(-rr * 0.12)},0 Z M${f(-rr)},0 L0,${f(rr * 0.12)} L${f(rr)},0 L0,${f(-rr * 0.12)} Z" fill="#6a4c93" fill-opacity="0.35"/></g>`,
  );
  return out.join("");
};

const seascapeScene: Scene = (width, height, p, rnd) => {
  const s = width / 1600;
  const out: string[] = [
    `<defs><linearGradient id="bgd" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.skyTop}"/><stop offset="1" stop-color="${p.skyBottom}"/></linearGradient><radialGradient id="glow"><stop offset="0" stop-color="${p.sun}" stop-opacity="0.8"/><stop offset="1" stop-color="${p.sun}" stop-opacity="0"/></radialGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bgd)"/>`,
    p.night ? stars(width, height * 0.5, rnd, 70) : "",
    `<circle cx="${f(width * 0.25)}" cy="${f(height * 0.3)}" r="${f(260 * s)}" fill="url(#glow)"/>`,
    `<circle cx="${f(width * 0.25)}" cy="${f(height * 0.3)}" r="${f(60 * s)}" fill="${p.sun}" fill-opacity="0.9"/>`,
    lighthouse(width * 0.84, height * 0.55, 1.25 * s, p.land, p.sun),
  ];
  const layers = 6;
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const base = height * (0.5 + 0.1 * i);
    const wl = (520 - i * 40) * s;
    const amp = (18 + i * 6) * s;
    let d = `M0,${f(height)} L0,${f(base)}`;
    for (let x = -rnd() * wl; x < width + wl; x += wl) {
      d += ` Q${f(x + wl / 4)},${f(base - amp)} ${f(x + wl / 2)},${f(base)} T${f(x + wl)},${f(base)}`;
    }
    d += ` L${f(width + wl)},${f(height)} Z`;
    out.push(
      `<path d="${d}" fill="${t < 0.5 ? p.seaTop : p.seaBottom}" fill-opacity="${f(0.55 + 0.09 * i)}"/>`,
      `<path d="${d}" fill="none" stroke="#ffffff" stroke-opacity="${f(0.08 + 0.04 * i)}" stroke-width="${f(2 * s)}"/>`,
    );
  }
  return out.join("");
};

const signalScene: Scene = (width, height, p, rnd) => {
  const s = width / 1600;
  const horizon = height * 0.66;
  const mx = width * 0.2;
  const top = height * 0.16;
  const out: string[] = [skyAndSea(width, height, horizon, p)];
  if (p.night) out.push(stars(width, horizon * 0.9, rnd));
  out.push(
    `<path d="M0,${f(horizon)} L0,${f(horizon - 50 * s)} Q${f(width * 0.12)},${f(horizon - 90 * s)} ${f(width * 0.3)},${f(horizon - 30 * s)} L${f(width * 0.36)},${f(horizon)} Z" fill="${p.land}"/>`,
  );
  // Lattice radio mast.
  const base = horizon - 60 * s;
  const half = 34 * s;
  const mast: string[] = [
    `<line x1="${f(mx - half)}" y1="${f(base)}" x2="${f(mx)}" y2="${f(top)}"/>`,
    `<line x1="${f(mx + half)}" y1="${f(base)}" x2="${f(mx)}" y2="${f(top)}"/>`,
  ];
  const steps = 12;
  for (let i = 0; i < steps; i++) {
    const y1 = base - ((base - top) * i) / steps;
    const y2 = base - ((base - top) * (i + 1)) / steps;
    const w1 = half * (1 - i / steps);
    const w2 = half * (1 - (i + 1) / steps);
    mast.push(
      `<line x1="${f(mx - w1)}" y1="${f(y1)}" x2="${f(mx + w2)}" y2="${f(y2)}"/>`,
      `<line x1="${f(mx + w1)}" y1="${f(y1)}" x2="${f(mx - w2)}" y2="${f(y2)}"/>`,
    );
  }
  out.push(`<g stroke="${p.land}" stroke-width="${f(4 * s)}">${mast.join("")}</g>`);
  out.push(`<circle cx="${f(mx)}" cy="${f(top)}" r="${f(7 * s)}" fill="${p.accent}"/>`);
  for (let i = 1; i <= 6; i++) {
    const r = i * 95 * s;
    out.push(
      `<path d="M${f(mx + r * Math.cos(-0.7))},${f(top + r * Math.sin(-0.7))} A${f(r)},${f(r)} 0 0 1 ${f(mx + r * Math.cos(0.7))},${f(top + r * Math.sin(0.7))}" fill="none" stroke="${p.accent}" stroke-opacity="${f(0.85 - i * 0.12)}" stroke-width="${f(5 * s)}" stroke-linecap="round"/>`,
    );
  }
  const shipX = width * (0.6 + rnd() * 0.15);
  out.push(waves(width, horizon, height, "#ffffff", rnd, 12));
  out.push(containerShip(shipX, horizon + 3 * s, 0.7 * s, p.land, rnd));
  const ax = shipX + 31 * 0.7 * s;
  const ay = horizon - 150 * 0.7 * s;
  for (let i = 1; i <= 3; i++) {
    const r = i * 26 * s;
    out.push(
      `<path d="M${f(ax + r * Math.cos(-2.4))},${f(ay + r * Math.sin(-2.4))} A${f(r)},${f(r)} 0 0 1 ${f(ax + r * Math.cos(-0.7))},${f(ay + r * Math.sin(-0.7))}" fill="none" stroke="${p.accent}" stroke-opacity="${f(0.9 - i * 0.2)}" stroke-width="${f(4 * s)}" stroke-linecap="round"/>`,
    );
  }
  return out.join("");
};

const harbourScene: Scene = (width, height, p, rnd) => {
  const s = width / 1600;
  const horizon = height * 0.62;
  const out: string[] = [skyAndSea(width, height, horizon, p)];
  if (p.night) out.push(stars(width, horizon * 0.6, rnd));
  const sunX = width * (0.15 + rnd() * 0.3);
  out.push(
    `<circle cx="${f(sunX)}" cy="${f(horizon - 150 * s)}" r="${f(220 * s)}" fill="url(#glow)"/>`,
    `<circle cx="${f(sunX)}" cy="${f(horizon - 150 * s)}" r="${f(44 * s)}" fill="${p.sun}"/>`,
  );
  const city: string[] = [];
  const lights: string[] = [];
  let x = -10;
  while (x < width * 0.72) {
    const w = (40 + rnd() * 70) * s;
    const tall = rnd() < 0.15;
    const h = (tall ? 180 + rnd() * 140 : 50 + rnd() * 120) * s;
    city.push(`<rect x="${f(x)}" y="${f(horizon - h)}" width="${f(w)}" height="${f(h)}"/>`);
    if (tall && rnd() < 0.5) {
      city.push(
        `<rect x="${f(x + w / 2 - 2 * s)}" y="${f(horizon - h - 40 * s)}" width="${f(4 * s)}" height="${f(40 * s)}"/>`,
      );
    }
    for (let wy = horizon - h + 10 * s; wy < horizon - 10 * s; wy += 16 * s) {
      for (let wx = x + 8 * s; wx < x + w - 10 * s; wx += 14 * s) {
        if (rnd() < (p.night ? 0.35 : 0.12)) {
          lights.push(`<rect x="${f(wx)}" y="${f(wy)}" width="${f(6 * s)}" height="${f(7 * s)}"/>`);
        }
      }
    }
    x += w + rnd() * 6 * s;
  }
  const cityGroup = `<g fill="${p.land}">${city.join("")}</g><g fill="${p.sun}" fill-opacity="${p.night ? 0.75 : 0.35}">${lights.join("")}</g>`;
  // Ship-to-shore gantry cranes on the quay.
  const cranes: string[] = [];
  for (let i = 0; i < 3; i++) {
    const cx = width * (0.76 + i * 0.075);
    const h = 220 * s;
    cranes.push(
      `<g stroke="${p.land}" stroke-width="${f(6 * s)}" fill="none"><line x1="${f(cx)}" y1="${f(horizon)}" x2="${f(cx)}" y2="${f(horizon - h)}"/><line x1="${f(cx + 50 * s)}" y1="${f(horizon)}" x2="${f(cx + 50 * s)}" y2="${f(horizon - h)}"/><line x1="${f(cx - 90 * s)}" y1="${f(horizon - h + 30 * s)}" x2="${f(cx + 130 * s)}" y2="${f(horizon - h + 30 * s)}"/><line x1="${f(cx)}" y1="${f(horizon - h)}" x2="${f(cx - 90 * s)}" y2="${f(horizon - h + 30 * s)}"/><line x1="${f(cx + 50 * s)}" y1="${f(horizon - h)}" x2="${f(cx + 130 * s)}" y2="${f(horizon - h + 30 * s)}"/><line x1="${f(cx)}" y1="${f(horizon - 60 * s)}" x2="${f(cx + 50 * s)}" y2="${f(horizon - 60 * s)}"/></g>`,
    );
  }
  out.push(
    cityGroup,
    `<rect x="${f(width * 0.7)}" y="${f(horizon - 14 * s)}" width="${f(width * 0.3)}" height="${f(14 * s)}" fill="${p.land}"/>`,
    cranes.join(""),
    containerShip(width * 0.73, horizon + 2 * s, 0.75 * s, p.land, rnd),
    `<g transform="translate(0,${f(horizon * 2)}) scale(1,-1)" opacity="0.18">${cityGroup}</g>`,
    waves(width, horizon, height, "#ffffff", rnd, 14),
  );
  return out.join("");
};

export const SCENES = {
  horizon: horizonScene,
  radar: radarScene,
  chart: chartScene,
  seascape: seascapeScene,
  signal: signalScene,
  harbour: harbourScene,
} satisfies Record<string, Scene>;

export type SceneName = keyof typeof SCENES;

export type PictureSpec = {
  scene: SceneName;
  /** Picks the palette and the random details, so different indexes look different. */
  variant: number;
  width: number;
  height: number;
  label: string;
  title: string;
  subtitle?: string;
};

const SCENE_WORDS: Record<SceneName, string> = {
  horizon: "a ship on the horizon",
  radar: "a radar screen",
  chart: "a nautical chart",
  seascape: "a seascape",
  signal: "radio waves from a mast",
  harbour: "a harbour",
};

/** The alt text of a demo picture: what it shows and the words written on it (decision 0041). */
export function pictureAlt(spec: Pick<PictureSpec, "scene" | "title" | "subtitle">): string {
  const words = spec.subtitle ? `${spec.title}, ${spec.subtitle}` : spec.title;
  const scene = SCENE_WORDS[spec.scene];
  return `Illustration of ${scene}, captioned “${words}”`.slice(0, 300);
}

export function pictureSvg(spec: PictureSpec): string {
  const p = palette(spec.variant);
  const rnd = random(hashString(`${spec.scene}:${spec.variant}:${spec.title}`));
  const body = SCENES[spec.scene](spec.width, spec.height, p, rnd);
  const accent = spec.scene === "chart" ? "#f0a35e" : p.accent;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}" viewBox="0 0 ${spec.width} ${spec.height}">${body}${caption(spec.width, spec.height, spec, accent)}${wordmark(spec.width, spec.scene === "chart" ? "#0b2545" : "#ffffff")}</svg>`;
}

/** Renders a scene to a JPEG (quality 70, progressive; plain libjpeg-turbo, several times faster than mozjpeg). */
export async function renderPicture(spec: PictureSpec): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(pictureSvg(spec)))
    .jpeg({ quality: 70, progressive: true })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------
// Logos

const LOGO_COLOURS = [
  "#0b3c5d",
  "#138086",
  "#b23a2e",
  "#d9731a",
  "#2e7d32",
  "#5e35b1",
  "#1565c0",
  "#37474f",
  "#8e244d",
  "#9c7a06",
  "#00838f",
  "#283593",
];

const LEGAL = new Set([
  "as",
  "asa",
  "ab",
  "ag",
  "bv",
  "nv",
  "gmbh",
  "ltd",
  "ltd.",
  "limited",
  "inc",
  "inc.",
  "llc",
  "plc",
  "sa",
  "s.a.",
  "srl",
  "s.r.l.",
  "spa",
  "s.p.a.",
  "oy",
  "a/s",
  "k.k.",
  "co.",
  "co",
  "corp.",
  "corporation",
  "pte",
  "pty",
  "sas",
  "sl",
  "s.l.",
  "kft",
  "sp.",
  "z",
  "o.o.",
  "d.o.o.",
  "co.,",
  "lda.",
  "ltda.",
  "a.ş.",
  "sdn",
  "bhd",
  "pvt",
  "s.a.e.",
  "sia",
  "oü",
  "sarl",
  "and",
  "&",
  "of",
  "the",
]);

export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => !LEGAL.has(w.toLowerCase()) && /^[\p{L}]/u.test(w));
  return words
    .slice(0, 3)
    .map((w) => w[0].toUpperCase())
    .join("");
}

function emblem(kind: number, colour: string, text: string): string {
  const letterSize = (kind % 4 === 3 ? 0.8 : 1) * (text.length > 2 ? 30 : 38);
  const letters = `<text x="0" y="0" dy="0.35em" text-anchor="middle" font-family="${FONT}" font-size="${f(letterSize)}" font-weight="bold" fill="#ffffff">${escapeXml(text)}</text>`;
  switch (kind % 4) {
    case 0:
      return `<circle r="56" fill="${colour}"/><circle r="48" fill="none" stroke="#ffffff" stroke-opacity="0.5" stroke-width="2"/>${letters}`;
    case 1:
      return `<path d="M0,-60 L52,-30 L52,30 L0,60 L-52,30 L-52,-30 Z" fill="${colour}"/><path d="M-40,30 q10,-8 20,0 t20,0 t20,0 t20,0" fill="none" stroke="#ffffff" stroke-opacity="0.6" stroke-width="3"/><g transform="translate(0,-8)">${letters}</g>`;
    case 2:
      return `<rect x="-56" y="-56" width="112" height="112" rx="22" fill="${colour}"/><path d="M-56,26 Q-28,10 0,26 T56,26 L56,34 Q56,56 34,56 L-34,56 Q-56,56 -56,34 Z" fill="#ffffff" fill-opacity="0.22"/><g transform="translate(0,-6)">${letters}</g>`;
    default: {
      const pts: string[] = [];
      for (let i = 0; i < 16; i++) {
        const a = (i / 16) * Math.PI * 2 - Math.PI / 2;
        const r = i % 4 === 0 ? 62 : i % 2 === 0 ? 40 : 30;
        pts.push(`${f(Math.cos(a) * r)},${f(Math.sin(a) * r)}`);
      }
      return `<polygon points="${pts.join(" ")}" fill="${colour}" fill-opacity="0.25"/><circle r="40" fill="${colour}"/>${letters}`;
    }
  }
}

/** A 400 × 200 logo: an emblem with the initials and the company name set beside it. */
export function logoSvg(name: string, index: number): string {
  const colour = LOGO_COLOURS[index % LOGO_COLOURS.length];
  const words = name.split(/\s+/);
  const main = words[0].length <= 3 && words.length > 2 ? words.slice(0, 2).join(" ") : words[0];
  const rest = words.slice(main.split(" ").length).join(" ").toUpperCase();
  const textX = 150;
  const avail = 232;
  const mainSize = Math.min(40, Math.floor(avail / (main.length * 0.68)));
  let subSize = Math.min(15, Math.floor(avail / Math.max(1, rest.length * 0.74)));
  let subLines = [rest];
  if (subSize < 11 && rest.length > 0) {
    subSize = 13;
    subLines = wrap(rest, avail, subSize, 0.7).slice(0, 2);
  }
  const total = mainSize + (rest ? 10 + subLines.length * subSize * 1.35 : 0);
  const top = 100 - total / 2 + mainSize * 0.8;
  const sub = subLines
    .map(
      (line, i) =>
        `<text x="${textX}" y="${f(top + 12 + subSize * 1.1 + i * subSize * 1.35)}" font-family="${FONT}" font-size="${subSize}" letter-spacing="1.2" fill="#5b6770">${escapeXml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200"><rect width="400" height="200" fill="#ffffff"/><g transform="translate(78,100)">${emblem(index, colour, initials(name))}</g><text x="${textX}" y="${f(top)}" font-family="${FONT}" font-size="${mainSize}" font-weight="bold" fill="${colour}">${escapeXml(main)}</text>${rest ? `<rect x="${textX}" y="${f(top + 8)}" width="40" height="3" fill="${colour}" fill-opacity="0.5"/>` : ""}${sub}</svg>`;
}

export async function renderLogo(
  name: string,
  index: number,
  format: "png" | "webp",
): Promise<{ data: Buffer; width: number; height: number }> {
  const image = sharp(Buffer.from(logoSvg(name, index)));
  const encoded = format === "png" ? image.png({ palette: true, compressionLevel: 9 }) : image.webp({ quality: 82 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------
// PDFs

export type PdfSpec = {
  title: string;
  number: string | null;
  organization: string;
  date: string;
  category: string;
  revision?: string | null;
  meeting?: string | null;
  /** Paragraphs; "## " starts a heading and "- " a compact list item. */
  paragraphs: string[];
};

/** Standard PDF fonts speak WinAnsi only; map the few other characters the copy uses. */
function pdfText(text: string): string {
  return text
    .replace(/[\u2010-\u2012\u2212]/g, "-")
    .replace(/\u2192/g, "->")
    .replace(/\u00a0/g, " ")
    .replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, "");
}

function wrapPdf(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= maxWidth || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const NAVY = rgb(0.043, 0.145, 0.271);
const GREY = rgb(0.35, 0.39, 0.43);
const ACCENT = rgb(0.878, 0.639, 0.345);

/** A one- or two-page A4 document with a letterhead, a reference block and the text. */
export async function renderPdf(spec: PdfSpec, createdAt: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const title = pdfText(spec.title);
  doc.setTitle(title);
  doc.setAuthor(spec.organization);
  doc.setSubject(spec.category);
  doc.setCreator("Masthead");
  doc.setProducer("Masthead document library");
  doc.setCreationDate(createdAt);
  doc.setModificationDate(createdAt);

  const width = 595.28;
  const height = 841.89;
  const margin = 64;
  const textWidth = width - margin * 2;
  const pages: PDFPage[] = [];

  const addPage = () => {
    const page = doc.addPage([width, height]);
    pages.push(page);
    page.drawRectangle({ x: 0, y: height - 70, width, height: 70, color: NAVY });
    page.drawRectangle({ x: 0, y: height - 74, width, height: 4, color: ACCENT });
    page.drawText("MASTHEAD", { x: margin, y: height - 44, size: 18, font: bold, color: rgb(1, 1, 1) });
    page.drawText("International association of marine electronics companies", {
      x: margin,
      y: height - 60,
      size: 8.5,
      font: regular,
      color: rgb(0.85, 0.89, 0.93),
    });
    const tag = pdfText(spec.category.toUpperCase());
    page.drawText(tag, {
      x: width - margin - bold.widthOfTextAtSize(tag, 8.5),
      y: height - 44,
      size: 8.5,
      font: bold,
      color: ACCENT,
    });
    return page;
  };

  let page = addPage();
  let y = height - 120;
  for (const line of wrapPdf(title, bold, 19, textWidth)) {
    page.drawText(line, { x: margin, y, size: 19, font: bold, color: NAVY });
    y -= 25;
  }
  y -= 6;
  const facts: [string, string][] = [
    ["Document", spec.number ?? "—"],
    ["Organisation", spec.organization],
    ["Date", spec.date],
  ];
  if (spec.revision) facts.push(["Revision", spec.revision]);
  if (spec.meeting) facts.push(["Meeting", spec.meeting]);
  const boxHeight = facts.length * 16 + 14;
  page.drawRectangle({
    x: margin,
    y: y - boxHeight + 10,
    width: textWidth,
    height: boxHeight,
    color: rgb(0.95, 0.96, 0.97),
    borderColor: rgb(0.84, 0.87, 0.9),
    borderWidth: 0.8,
  });
  for (const [label, value] of facts) {
    page.drawText(label, { x: margin + 12, y: y - 8, size: 9.5, font: bold, color: GREY });
    page.drawText(pdfText(value), { x: margin + 110, y: y - 8, size: 9.5, font: regular, color: NAVY });
    y -= 16;
  }
  y -= 34;

  const size = 10.5;
  const leading = 15;
  for (const paragraph of spec.paragraphs) {
    const heading = paragraph.startsWith("## ");
    const item = paragraph.startsWith("- ");
    const text = pdfText(heading ? paragraph.slice(3) : item ? `•  ${paragraph.slice(2)}` : paragraph);
    const font = heading ? bold : regular;
    const fontSize = heading ? 12.5 : size;
    const lines = wrapPdf(text, font, fontSize, textWidth);
    if (y - lines.length * leading < margin + 30 || (heading && y < margin + 90)) {
      page = addPage();
      y = height - 112;
    }
    if (heading) y -= 4;
    for (const line of lines) {
      page.drawText(line, { x: margin, y, size: fontSize, font, color: heading ? NAVY : rgb(0.13, 0.15, 0.18) });
      y -= heading ? 18 : leading;
    }
    y -= heading ? 2 : item ? 3 : 8;
  }

  pages.forEach((p, i) => {
    const footer = pdfText(`${spec.number ?? title}  ·  © Masthead  ·  Page ${i + 1} of ${pages.length}`);
    p.drawLine({
      start: { x: margin, y: 46 },
      end: { x: width - margin, y: 46 },
      thickness: 0.6,
      color: rgb(0.8, 0.83, 0.86),
    });
    p.drawText(footer, { x: margin, y: 32, size: 8, font: regular, color: GREY });
  });
  return doc.save();
}
