import { vi } from 'vitest';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { App, type AppProps } from '../../src/hosts/tui/app.js';
import { openingItems } from '../../src/hosts/tui/run-chat.js';
import { createWarningFeed, type WarningFeed } from '../../src/hosts/tui/warning-feed.js';
import { loadRunnableAgent, openConversation, type SessionChoice } from '../../src/hosts/open-conversation.js';
import type { Conversation } from '../../src/kernel/conversation.js';
import type { ModelOverrides } from '../../src/model/model-spec.js';
import type { SessionStore } from '../../src/session/store.js';

export const KEY = {
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlW: '\u0017',
  ctrlA: '\u0001',
} as const;

/** Waits for a frame that satisfies `check` (renders are asynchronous), never a fixed sleep. */
export async function frameWith(lastFrame: () => string | undefined, check: string | ((frame: string) => boolean)): Promise<string> {
  const test = typeof check === 'string' ? (frame: string) => frame.includes(check) : check;
  let frame = '';
  await vi.waitFor(
    () => {
      frame = lastFrame() ?? '';
      if (!test(frame)) throw new Error(`no frame ${typeof check === 'string' ? `with "${check}"` : 'matched'}; the last was:\n${frame}`);
    },
    { timeout: 15_000, interval: 10 },
  );
  return frame;
}

export interface ChatHarness {
  conversation: Conversation;
  lastFrame(): string;
  write(...chunks: string[]): void;
  /** The lines between the rules around the input. */
  input(): string[];
  saved: string[];
  quitWith: string[];
  warn(message: string): void;
  unmount(): void;
}

export interface ChatOptions {
  overrides?: ModelOverrides;
  choice?: SessionChoice;
  history?: string[];
  /** Where the session is kept; the agent folder when absent. */
  store?: SessionStore;
  /** Adjusts the conversation before the chat is drawn (extra commands, indicators). */
  prepare?(conversation: Conversation): void;
}

/**
 * The chat's screen over `conversation` as run-chat sets it up, with what a test leaves out filled
 * in (no history, nothing saved, a fixed resume hint); `props` override any of it.
 */
export function chatApp(conversation: Conversation, warnings: WarningFeed, props: Partial<AppProps> = {}): ReactElement {
  return (
    <App
      {...openingItems(conversation)}
      conversation={conversation}
      warnings={warnings}
      history={[]}
      saveHistory={() => undefined}
      resumeHint={(id) => `auggy run agent --session ${id}`}
      {...props}
    />
  );
}

/** The whole chat screen over a real conversation, in memory: keys in through stdin, frames out. */
export async function openChat(dir: string, options: ChatOptions = {}): Promise<ChatHarness> {
  const warnings = createWarningFeed();
  const target = await loadRunnableAgent(dir, options.overrides ?? {}, () => undefined);
  const conversation = await openConversation(target, options.choice ?? {}, warnings.warn, options.store);
  options.prepare?.(conversation);
  const saved: string[] = [];
  const quitWith: string[] = [];
  // What the chat printed above its live frame, which a debug-mode frame of Ink leaves out.
  let printed = '';
  const app = render(
    chatApp(conversation, warnings, {
      history: options.history ?? [],
      saveHistory: (entry) => saved.push(entry),
      onQuit: (session) => quitWith.push(session.id),
      print: (text) => (printed += text),
    }),
  );
  const lastFrame = () => printed + (app.lastFrame() ?? '');
  await frameWith(lastFrame, (frame) => /Type a message|Type your reply/.test(frame));
  return {
    conversation,
    lastFrame,
    write: (...chunks) => chunks.forEach((chunk) => app.stdin.write(chunk)),
    input: () => {
      const lines = lastFrame().split('\n');
      const rules = lines.flatMap((line, index) => (line.startsWith('──') ? [index] : []));
      return lines.slice(rules.at(-2)! + 1, rules.at(-1)).map((line) => line.trimEnd());
    },
    saved,
    quitWith,
    warn: warnings.warn,
    unmount: () => app.unmount(),
  };
}
