import { defineConfig } from 'vitest/config';

/**
 * Unit tests: plain Node, no browser, no Astro build. `npm test` runs this config first and the
 * browser suite (test/e2e/vitest.config.ts) after `astro build`. Put a test next to the code as
 * `*.test.ts` under src/ or labs/, or under test/unit/ when it crosses modules.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'src/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/grader/**/*.test.ts',
      'test/cli/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/hostile/**/*.test.ts',
      'labs/**/*.test.ts',
    ],
    passWithNoTests: true,
  },
});
