import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { leanContract } from "./build/lean-contract";

export default defineConfig(({ command, mode }) => {
  const production = command === "build" && mode === "production";
  return {
    plugins: production ? [react(), leanContract()] : [react()],
    resolve: {
      // Production builds leave zod out (src/lib/zod-stub.ts says why); development keeps it, so callApi
      // checks every answer against the contract there.
      alias: production
        ? [{ find: /^zod$/, replacement: fileURLToPath(new URL("./src/lib/zod-stub.ts", import.meta.url)) }]
        : [],
    },
    server: {
      port: 5173,
      proxy: { "/api": "http://localhost:8080", "/media": "http://localhost:8080" },
    },
    build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 2000 },
  };
});
