import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { pureDefinitions } from "./scripts/vite/pure-definitions";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), pureDefinitions(import.meta.dirname)],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  build: { sourcemap: false },
  // Bundled into the server build, so that it holds only the icons and primitives the pages use: left
  // external, Node loads lucide-react's 1 500 icons (40 MB resident) and every Radix primitive at start.
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
});
