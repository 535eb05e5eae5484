import type { Token, TokensList } from 'marked';

/**
 * marked builds some forty regular expressions as it is imported, ~10 ms that the chat's first
 * frame need not wait for: nothing on it is markdown. So it is imported apart, and run-chat has
 * it loaded before any markdown is drawn (right after the first frame, or before a resumed
 * session's transcript is printed).
 */
let marked: typeof import('marked') | undefined;
let loading: Promise<void> | undefined;

/** Loads the markdown lexer; lexMarkdown may be called once this resolves. */
export function loadMarkdownLexer(): Promise<void> {
  loading ??= import('marked').then((module) => {
    marked = module;
  });
  return loading;
}

/** The reply's top-level blocks (GitHub-flavoured markdown), as marked's lexer reads them. */
export function lexMarkdown(text: string): TokensList {
  if (marked === undefined) throw new Error('the markdown lexer is not loaded yet: await loadMarkdownLexer() before drawing markdown');
  return new marked.Lexer({ gfm: true }).lex(text);
}

/**
 * Splits a streaming reply where a block ends: everything before the last block is final (more
 * text can only extend the last one), the last block stays live. Undefined when nothing is
 * final yet, or when the lexer's pieces do not add up to the text (then nothing is cut).
 */
export function splitFinishedBlocks(text: string): { done: string; rest: string } | undefined {
  const tokens: Token[] = lexMarkdown(text);
  const last = tokens.findLastIndex((token) => token.type !== 'space');
  if (last <= 0) return undefined;
  if (tokens.map((token) => token.raw).join('') !== text) return undefined;
  const cut = tokens.slice(0, last).reduce((length, token) => length + token.raw.length, 0);
  const done = text.slice(0, cut).replace(/\n+$/, '');
  if (done.trim() === '') return undefined;
  return { done, rest: text.slice(cut) };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n/;

/**
 * The end of a long reply in about `chars` characters, cut at a line. Inside a code block the
 * opening fence is kept, so the clipped text still reads as code and not as loose lines.
 */
export function clipMarkdownTail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const tail = text.slice(-chars);
  const lineStart = tail.indexOf('\n');
  const lines = lineStart >= 0 ? tail.slice(lineStart + 1) : tail;
  const fence = FENCE.exec(text);
  const closed = fence ? new RegExp(`\\n {0,3}${fence[1][0]}{${fence[1].length},}\\s*(\\n|$)`).test(text.slice(fence[0].length)) : false;
  if (fence && !closed) return `${fence[0]}…\n${lines}`;
  return `…\n${lines}`;
}
