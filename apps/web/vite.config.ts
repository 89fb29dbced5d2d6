import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress.js';
import { routePreloads } from './build/route-preloads.js';

export default defineConfig({
  plugins: [react(), routePreloads(), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The two large libraries every page loads, each in a chunk of its own, so an app change leaves them
          // cached. Smaller ones stay where the bundler puts them: more files compress worse (grouping i18next and
          // TanStack Query too cost 3 kB gzip). Mantine stays split per component, so a screen fetches only the
          // components it shows.
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/locales': 'http://127.0.0.1:8080' } },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/testing/setup.ts'],
    // Screen tests click through real components; on a busy 2-core machine 5 s is not enough for the longer ones.
    testTimeout: 20_000,
    // Each file in a fresh VM context of one of two long-lived threads, not a new process per file: the same
    // isolation (every module evaluated anew per file) at half the time (a process per file cost ≈ 2 s in start-up,
    // setup and environment on this 2-core machine). Two workers: see the root vitest.config.ts.
    pool: 'vmThreads',
    // recharts' CommonJS build (what Node picks for @mantine/charts' import) requires @reduxjs/toolkit, whose
    // `module-sync` export is ESM that a VM context cannot require: both are transformed by Vite instead, recharts
    // from its ES build, as the app's bundle takes it.
    alias: { recharts: 'recharts/es6/index.js' },
    server: { deps: { inline: ['@mantine/charts', 'recharts'] } },
  },
});
