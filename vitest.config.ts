import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Every test opens real SQLite files in its own temporary directory; the pool of
    // forks keeps native handles of one file from leaking into another.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
