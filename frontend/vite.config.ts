import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { fileURLToPath } from 'node:url';

// `--mode fake` swaps the Wails backend for the in-memory fake and writes to
// dist-fake/, so the production bundle never contains the fake.
export default defineConfig(({ mode }) => {
  const fake = mode === 'fake';
  const impl = fake ? './src/lib/backend/fake-entry.ts' : './src/lib/backend/wails.ts';
  return {
    base: './',
    plugins: [svelte(), svelteTesting()],
    resolve: {
      alias: { '#backend-impl': fileURLToPath(new URL(impl, import.meta.url)) },
    },
    build: {
      outDir: fake ? 'dist-fake' : 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 1000,
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.ts'],
      testTimeout: 20000,
      setupFiles: ['src/test-setup.ts'],
    },
  };
});
