// Bundles the Hono server entry (TypeScript) to build/server.js and
// precompresses the client assets (.br, .gz) for the static middleware.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});

const COMPRESSIBLE = /\.(js|css|svg|json|txt|html|xml|webmanifest)$/;
let count = 0;
function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (COMPRESSIBLE.test(entry.name) && fs.statSync(file).size > 1024) {
      const data = fs.readFileSync(file);
      fs.writeFileSync(
        `${file}.br`,
        zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      count += 1;
    }
  }
}
walk("build/client");
console.log(`server bundled to build/server.js; ${count} client assets precompressed`);
