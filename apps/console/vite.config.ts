import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react-swc';
import { defineConfig } from 'vite';

const source = (path: string) => fileURLToPath(new URL(`../../packages/${path}`, import.meta.url));

/**
 * The console is bundled from the TypeScript sources of the workspace packages it uses (ES
 * modules, so only what it calls is kept): the client's browser build (fetch, no undici) and
 * the contract's API table. Built files are hashed (served as immutable by the gateway).
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@svc\/client$/, replacement: source('client/src/browser.ts') },
      { find: /^@svc\/contract$/, replacement: source('contract/src/browser.ts') },
    ],
  },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '^/(svc|c=|login|logout|discovery|websocket)': 'http://127.0.0.1:8000' } },
});
