import fs from "node:fs";
import { renderPicture, renderLogo, renderPdf, SCENES, type SceneName } from "./assets";
const t0 = Date.now();
let i = 0;
for (const scene of Object.keys(SCENES) as SceneName[]) {
  const t = Date.now();
  const r = await renderPicture({ scene, variant: i, width: 1600, height: 900, label: "News", title: "Masthead welcomes three new members from the Asia-Pacific region", subtitle: scene === "harbour" ? "12–15 May 2027 · Rotterdam, Netherlands" : undefined });
  fs.writeFileSync(`/tmp/seedimg/${scene}.jpg`, r.data);
  console.log(scene, r.data.length, Date.now() - t);
  i++;
}
for (const [k, n] of ["Nordhavn Marine Electronics AS", "Kestrel Radio Systems Ltd", "Brightwater Navigation GmbH", "Sato Maritime Instruments K.K."].entries()) {
  const l = await renderLogo(n, k, k % 2 ? "webp" : "png");
  fs.writeFileSync(`/tmp/seedimg/logo${k}.${k % 2 ? "webp" : "png"}`, l.data);
  console.log(n, l.data.length);
}
const pdf = await renderPdf({ title: "Guidance on GNSS interference — detection and reporting", number: "TB-2024-07", organization: "Masthead", date: "2024-07-12", category: "Technical bulletins", revision: "1", paragraphs: ["## Purpose", "Lorem ipsum ".repeat(80), "## Scope", "Some text — “quoted” ’ ≥ 5 → ok ".repeat(30), "More ".repeat(300)] }, new Date());
fs.writeFileSync("/tmp/seedimg/a.pdf", pdf);
console.log("pdf", pdf.length, "total", Date.now() - t0);
