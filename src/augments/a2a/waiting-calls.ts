import type { Part } from '@a2a-js/sdk';
import type { SessionHandle } from '../../session/session.js';

/** The session file that holds the a2a calls waiting on the person. */
export const WAITING_CALLS_FILE = 'a2a-waiting.json';

/** A call whose remote task asked, while the person here answers in a later run (serve's interrupts). */
export interface WaitingCall {
  taskId: string;
  contextId: string;
  /** The remote task's status message: the question, and any JSON Schema of its answer. */
  parts: Part[];
  /** Answers sent on this task so far, so the bound on rounds holds across runs. */
  round: number;
}

function isWaitingCall(value: unknown): value is WaitingCall {
  if (typeof value !== 'object' || value === null) return false;
  const call = value as Partial<WaitingCall>;
  return typeof call.taskId === 'string' && typeof call.contextId === 'string' && Array.isArray(call.parts) && typeof call.round === 'number';
}

/**
 * The a2a calls of a session that wait on the person, by tool call id. The run that brings the
 * answer calls the tool again; it must carry on the remote task that asked, not send the
 * model's message a second time, so what that task asked is kept in the session (which a
 * PostgreSQL replica reads too), not in this process.
 */
export class WaitingCalls {
  constructor(private readonly session: SessionHandle) {}

  get(toolCallId: string): WaitingCall | undefined {
    const call = this.all()[toolCallId];
    return isWaitingCall(call) ? call : undefined;
  }

  async hold(toolCallId: string, call: WaitingCall): Promise<void> {
    await this.session.writeState(WAITING_CALLS_FILE, { ...this.all(), [toolCallId]: call });
  }

  async release(toolCallId: string): Promise<void> {
    const calls = this.all();
    if (!(toolCallId in calls)) return;
    delete calls[toolCallId];
    if (Object.keys(calls).length === 0) await this.session.removeState(WAITING_CALLS_FILE);
    else await this.session.writeState(WAITING_CALLS_FILE, calls);
  }

  private all(): Record<string, unknown> {
    const read = this.session.readState(WAITING_CALLS_FILE);
    return read.status === 'ok' && typeof read.value === 'object' && read.value !== null ? { ...(read.value as Record<string, unknown>) } : {};
  }
}
