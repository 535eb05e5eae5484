import { loadMarkdownLexer } from '../../src/hosts/tui/markdown/markdown-blocks.js';

// As run-chat does before any markdown is drawn.
await loadMarkdownLexer();
