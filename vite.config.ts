// The web app's build and dev server. The SPA lives in web/; the Fastify server serves dist/web in production
// and answers /api and /sandbox on port 3001 during `npm run dev`.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

const apiServer = 'http://localhost:3001';

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
  },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': apiServer,
      '/sandbox': apiServer,
    },
  },
});
