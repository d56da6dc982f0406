import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { pureDefinitions } from "./scripts/vite/pure-definitions";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), pureDefinitions(import.meta.dirname)],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  build: { sourcemap: false },
});
