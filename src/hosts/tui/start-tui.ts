import type { StoreChoice } from '../../session/open-store.js';
import type { SessionSummary } from '../../session/session-summary.js';
import { CHAT_CONTEXT_REMEDIES, openAgentStore, openConversation, type AgentTarget, type SessionChoice } from '../open-conversation.js';
import type { RetypeContext } from '../retype-command.js';
import { createWarningFeed } from './warning-feed.js';

/**
 * Ink and React read the environment once, when first imported. Ink takes a `CI` variable to
 * mean it must never redraw the live part of the screen, but `auggy run` only gets here on a real
 * terminal; React picks its slower development build unless NODE_ENV says production. And Ink's
 * layout engine, yoga, carries its WebAssembly inline and reads it through `fetch` of a `data:`
 * URL whenever there is a global `fetch`: Node's first `fetch` loads undici and its web streams,
 * about 70 ms of CPU on Node 24 and 30 ms on Node 20 before the first frame, for bytes already in
 * memory. Without a `fetch`, yoga's loader decodes the same text itself. So all three are loaded
 * with the environment adjusted (no CI, production, no `fetch`), and it is restored right after;
 * nothing else runs in between that could want either.
 */
export async function loadInteractiveInk(): Promise<void> {
  const saved = ['CI', 'CONTINUOUS_INTEGRATION', 'NODE_ENV'].map((name) => [name, process.env[name]] as const);
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  process.env.NODE_ENV ??= 'production';
  if (fetchProperty?.configurable === true) Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    // The JSX runtime too: a development one beside a production React does not work.
    await Promise.all([import('react'), import('react/jsx-runtime'), import('ink')]);
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (fetchProperty?.configurable === true) Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}

export interface TuiOptions {
  /** How the person types auggy again from here, for the resume hints. */
  retype: RetypeContext;
  /** `--resume` without an id: these sessions are offered to pick from before the chat opens. */
  sessions?: SessionSummary[];
  /** `--store`: where the sessions are; the agent folder when absent. */
  store?: Omit<StoreChoice, 'log'>;
}

/** `auggy run` on a terminal: the chat. Resolves to the exit code (0 when the person quits). */
export async function startTui(target: AgentTarget, choice: SessionChoice, options: TuiOptions): Promise<number> {
  const streams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  await loadInteractiveInk();
  // The chat's own modules load while the store and the session open.
  const chatModule = import('./run-chat.js');
  chatModule.catch(() => undefined);
  let sessionChoice = choice;
  if (options.sessions) {
    if (options.sessions.length === 0) {
      const where = options.store?.url === undefined ? 'this folder' : 'this store';
      process.stdout.write(`no sessions to resume here yet: nothing has been said to this agent in ${where}\n`);
      return 0;
    }
    const { pickSession } = await import('./session-picker.js');
    const picked = await pickSession(options.sessions, streams);
    if (picked === undefined) return 0;
    sessionChoice = { sessionId: picked };
  }
  const warnings = createWarningFeed();
  const store = await openAgentStore(target, options.store ?? {}, warnings.warn);
  try {
    const conversation = await openConversation(target, sessionChoice, warnings.warn, store, CHAT_CONTEXT_REMEDIES);
    const { runChat } = await chatModule;
    return await runChat({ conversation, warnings, retype: options.retype, ...streams });
  } finally {
    await store.close();
  }
}
