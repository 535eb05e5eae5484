import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // End-to-end tests spawn the built binary and real terminals; give them room, never a race.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Components that draw markdown are rendered directly in tests; the chat loads the lexer itself.
    setupFiles: ['test/helpers/markdown-lexer.ts'],
  },
});
