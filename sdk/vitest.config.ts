import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // The integration test starts the service (`npm start` in the repository root) unless
    // SDK_TEST_BASE_URL points at a running one.
    hookTimeout: 180_000,
  },
});
