import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sessionsRoot } from '../../session/session.js';
import { folderSessionSummaries, type SessionSummary } from '../../session/session-summary.js';
import { openSessionStore, type StoreChoice } from '../../session/open-store.js';
import { SessionError } from '../../session/session-error.js';
import { retypeCommand, shellQuote } from '../../hosts/retype-command.js';
import { EXIT, UsageError } from '../../hosts/exit-codes.js';
import { invokedAs } from '../invoked-as.js';
import { storeChoiceFrom, type StoreOptionValues } from '../store-option.js';
import { sessionListLines } from '../../hosts/session-rows.js';
import { storeAgentOf } from './store-agent.js';
import { requireExistingFolder } from '../../hosts/open-conversation.js';

/**
 * The agent's sessions, newest first: from the agent folder, or from the store `--store` names.
 * A folder that is not an agent's, or a store that cannot be read, is a usage mistake.
 */
export async function agentSessions(dir: string, store: Omit<StoreChoice, 'log'> = {}): Promise<{ agentDir: string; summaries: SessionSummary[] }> {
  const agentDir = resolve(dir);
  requireExistingFolder(agentDir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder (auggy sessions <dir>)`);
  }
  if (store.url === undefined) return { agentDir, summaries: folderSessionSummaries(sessionsRoot(agentDir)) };
  try {
    const opened = await openSessionStore(storeAgentOf(agentDir), { ...store, log: (message) => process.stderr.write(`auggy: warning: ${message}\n`) });
    try {
      return { agentDir, summaries: await opened.summaries() };
    } finally {
      await opened.close();
    }
  } catch (error) {
    if (error instanceof SessionError) throw new UsageError(error.message);
    throw error;
  }
}

/** The list as text for someone reading it, with how to resume one. */
export function sessionListText(summaries: readonly SessionSummary[], resumeHint: string, width = process.stdout.columns || 100): string {
  if (summaries.length === 0) return 'no sessions yet: nothing has been said to this agent here\n';
  return `${sessionListLines(summaries, width).join('\n')}\n\nresume one with: ${resumeHint}\n`;
}

export async function sessionsCommand(dir: string, options: { json?: boolean } & StoreOptionValues): Promise<number> {
  const store = storeChoiceFrom(options);
  const { agentDir, summaries } = await agentSessions(dir, store);
  if (options.json) process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  else {
    // A session in the store is resumed from the store.
    const storeFlags = options.store !== undefined ? ['--store', options.store] : [];
    // The id goes right after --resume, before the store flags: after them it would be read as the message.
    const resume = retypeCommand({ program: invokedAs(), agentDir, cwd: process.cwd(), modelFlags: [] }, ['--resume']);
    process.stdout.write(sessionListText(summaries, [resume, '<id>', ...storeFlags.map(shellQuote)].join(' ')));
  }
  return EXIT.ok;
}
