import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sessionsRoot } from '../../session/session.js';
import { folderSessionSummaries, type SessionSummary } from '../../session/session-summary.js';
import { retypeCommand } from '../../hosts/retype-command.js';
import { EXIT, UsageError } from '../../hosts/exit-codes.js';
import { invokedAs } from '../invoked-as.js';
import { sessionListLines } from '../../hosts/session-rows.js';

/** The agent folder's sessions, newest first; a folder that is not an agent's is a usage mistake. */
export function agentSessions(dir: string): { agentDir: string; summaries: SessionSummary[] } {
  const agentDir = resolve(dir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder (auggy sessions <dir>)`);
  }
  return { agentDir, summaries: folderSessionSummaries(sessionsRoot(agentDir)) };
}

/** The list as text for someone reading it, with how to resume one. */
export function sessionListText(summaries: readonly SessionSummary[], resumeHint: string, width = process.stdout.columns || 100): string {
  if (summaries.length === 0) return 'no sessions yet: nothing has been said to this agent here\n';
  return `${sessionListLines(summaries, width).join('\n')}\n\nresume one with: ${resumeHint}\n`;
}

export async function sessionsCommand(dir: string, options: { json?: boolean }): Promise<number> {
  const { agentDir, summaries } = agentSessions(dir);
  if (options.json) process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  else {
    const resume = retypeCommand({ program: invokedAs(), agentDir, cwd: process.cwd(), modelFlags: [] }, ['--resume']);
    process.stdout.write(sessionListText(summaries, `${resume} <id>`));
  }
  return EXIT.ok;
}
