import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // End-to-end tests spawn the built binary and real terminals; give them room, never a race.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Components that draw markdown are rendered directly in tests; the chat loads the lexer itself.
    // Each file also starts without the developer's AUGGY_* settings (clean-environment.ts says why).
    setupFiles: ['test/helpers/clean-environment.ts', 'test/helpers/markdown-lexer.ts'],
  },
});
