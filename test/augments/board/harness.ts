import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findAugmentFactory } from '../../../src/augments/registry.js';
import type { Augment, CommandOutput } from '../../../src/kernel/augment.js';
import { SYSTEM_LINE_EVENT, type KernelEvent } from '../../../src/kernel/events.js';
import type { KernelTool, ToolResult } from '../../../src/kernel/tool.js';
import { NOBODY } from '../../../src/kernel/person.js';
import { openSession, type SessionHandle } from '../../../src/session/session.js';
import { boardFolder, loadFolder } from '../../helpers/board-fixture.js';
import { folderOf } from '../../helpers/session-folder.js';

export { boardFolder, loadFolder, openBoardConversation, runCommand, systemPrompt, THREE_LINES } from '../../helpers/board-fixture.js';

export interface BoardHarness {
  dir: string;
  session: SessionHandle;
  board: Augment;
  events: KernelEvent[];
  warnings: string[];
}

/** The board augment started on a real session folder, as Conversation.open starts it. */
export async function startBoard(options: { dir?: string; sessionId?: string } = {}): Promise<BoardHarness> {
  const dir = options.dir ?? boardFolder();
  const agent = await loadFolder(dir);
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId: options.sessionId });
  const config = agent.augments.find((candidate) => candidate.type === 'board');
  const factory = findAugmentFactory('board');
  if (!config || !factory) throw new Error('the fixture has no board');
  const events: KernelEvent[] = [];
  const warnings: string[] = [];
  const board = await factory.create({
    agent,
    augmentId: config.id,
    config: config.config,
    session,
    emit: (event) => events.push(event),
    complete: async () => ({ ok: false, error: 'no completions in board tests' }),
    warn: (message) => warnings.push(message),
  });
  return { dir, session, board, events, warnings };
}

export function tool(h: BoardHarness, name: string): KernelTool {
  const found = h.board.tools?.().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

export function callTool(h: BoardHarness, name: string, input: unknown): Promise<ToolResult> {
  return tool(h, name).run(input, { toolCallId: 'call_1', signal: new AbortController().signal, emit: (event) => h.events.push(event), person: NOBODY });
}

export async function command(h: BoardHarness, args: string): Promise<CommandOutput> {
  const board = h.board.commands?.().find((candidate) => candidate.name === 'board');
  if (!board) throw new Error('no /board command');
  return board.run(args);
}

export function savedBoard(session: SessionHandle): { version: number; lines: Record<string, { text: string; by: string; at: string }> } | undefined {
  const path = join(folderOf(session), 'board.json');
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as { version: number; lines: Record<string, { text: string; by: string; at: string }> })
    : undefined;
}

export function systemLines(events: readonly KernelEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'CUSTOM' && event.name === SYSTEM_LINE_EVENT ? [(event.value as { text: string }).text] : []));
}
