import type { ChatReply, ReceivedRequest } from '../../helpers/chat-server.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';

/**
 * The loopback server's side of a goal: which requests are the goal's evaluator (or userAsk's),
 * and a model whose agent turns and verdicts each test writes out.
 */
const GOAL_EVALUATOR = 'You are the goal evaluator';
const ASK_EVALUATOR = 'turn evaluator for a tracked user request';
export const system = (request: ReceivedRequest) => String(request.body.messages.find((m) => m.role === 'system')?.content ?? '');
export const isGoalEvaluator = (request: ReceivedRequest) => system(request).includes(GOAL_EVALUATOR);
export const isAskEvaluator = (request: ReceivedRequest) => system(request).includes(ASK_EVALUATOR);
export const lastUser = (request: ReceivedRequest) => String(request.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
export const verdict = (met: boolean, reason: string): ChatReply => ({ text: JSON.stringify({ met, reason }) });

export function goalFolder(config?: string, augments = ['turnControl', 'goal']): string {
  return makeAgentFolder({ augments, files: config ? { 'augments/goal/augment.yaml': `type: goal\nconfig:\n${config}` } : {} });
}

/** The agent says `agent(n)` on its n-th turn (from 0); the goal evaluator answers `verdicts` in order. */
export function model(agent: (turn: number, request: ReceivedRequest) => ChatReply, verdicts: ChatReply[]) {
  let judged = 0;
  let turns = 0;
  return (request: ReceivedRequest): ChatReply => {
    if (isGoalEvaluator(request)) return verdicts[judged++] ?? verdict(false, 'default');
    if (isAskEvaluator(request)) return { text: '{"outcome":"in_progress","reason":"the ask is under way"}' };
    // A round after a tool result belongs to the same turn.
    if (request.body.messages.at(-1)?.role === 'tool') return { text: 'Noted.' };
    return agent(turns++, request);
  };
}
