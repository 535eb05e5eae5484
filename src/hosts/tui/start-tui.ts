import type { StoreChoice } from '../../session/open-store.js';
import { openAgentStore, openConversation, type AgentTarget, type SessionChoice } from '../open-conversation.js';
import { createWarningFeed } from './warning-feed.js';

/**
 * Ink and React read the environment once, when first imported. Ink takes a `CI` variable to
 * mean it must never redraw the live part of the screen, but `auggy run` only gets here on a real
 * terminal; React picks its slower development build unless NODE_ENV says production. So both
 * are loaded with the environment adjusted, and it is restored right after.
 */
export async function loadInteractiveInk(): Promise<void> {
  const saved = ['CI', 'CONTINUOUS_INTEGRATION', 'NODE_ENV'].map((name) => [name, process.env[name]] as const);
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  process.env.NODE_ENV ??= 'production';
  try {
    // The JSX runtime too: a development one beside a production React does not work.
    await import('react');
    await import('react/jsx-runtime');
    await import('ink');
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** `auggy run` on a terminal: the chat. Resolves to the exit code (0 when the person quits). */
export async function startTui(target: AgentTarget, choice: SessionChoice, storeChoice: Omit<StoreChoice, 'log'> = {}): Promise<number> {
  const warnings = createWarningFeed();
  const store = await openAgentStore(target, storeChoice, warnings.warn);
  try {
    const conversation = await openConversation(target, choice, warnings.warn, store);
    await loadInteractiveInk();
    const { runChat } = await import('./run-chat.js');
    const resumeFlags = store.shared ? ` --store ${store.location}` : '';
    return await runChat({ conversation, warnings, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, resumeFlags });
  } finally {
    await store.close();
  }
}
