import type { TurnStatus } from '../../kernel/events.js';

/** How the TUI header names the agent, the model and the session. */
export interface HeaderInfo {
  title: string;
  model: string;
  sessionId: string;
  resumed: boolean;
}

export type SystemTone = 'info' | 'warning' | 'error';

/** A tool call as one line: `ok`/`error` once it settled, `running` while it runs, `not-run` when the turn ended first. */
export type ToolCallState = 'running' | 'ok' | 'error' | 'not-run';

/**
 * One entry of the transcript as the person sees it. Finished items are printed once, above
 * the live frame (printed-transcript.tsx); the same shapes are drawn live while a turn streams.
 */
export type DisplayItem =
  | ({ kind: 'header'; id: string } & HeaderInfo)
  | { kind: 'user'; id: string; text: string }
  /** An image the person's message carried, on a line of its own under it: its name, type and size. */
  | { kind: 'attachment'; id: string; name?: string; mediaType: string; size: number }
  /** `continued` marks the later part of a long message that was printed in pieces while it streamed. */
  | { kind: 'assistant'; id: string; text: string; continued: boolean }
  | { kind: 'tool'; id: string; name: string; args: string; result?: string; state: ToolCallState }
  /** The agent's question of a turn that ended input-required. */
  | { kind: 'question'; id: string; text: string }
  /** What the person answered a questionnaire with, or decided about a tool call, on one line. */
  | { kind: 'answer'; id: string; text: string }
  /** How a turn ended when that is worth a line: failed, canceled, budget-exhausted. */
  | { kind: 'turn-end'; id: string; status: TurnStatus; message?: string }
  | { kind: 'system'; id: string; text: string; tone: SystemTone };
