/** Glyphs in one place, so every component marks things the same way; colours are in palette.tsx. */
export const glyph = {
  prompt: '›',
  assistant: '●',
  tool: '•',
  question: '?',
  ok: '✓',
  error: '✗',
  canceled: '⊘',
  warning: '!',
  running: '…',
} as const;

/** Clears the screen and the scrollback, then homes the cursor: the transcript is printed afresh. */
export const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

/** Bracketed paste: the terminal marks pasted text, so newlines in it are never taken as Enter. */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
