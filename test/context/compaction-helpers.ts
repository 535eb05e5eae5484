import { loadRunnableAgent, openConversation } from '../../src/hosts/open-conversation.js';
import { scriptedSummary } from '../../src/model/scripted/summary-reply.js';
import { makeAgentFolder, type FixtureOptions } from '../helpers/agent-fixture.js';
import type { ChatReply, ReceivedRequest } from '../helpers/chat-server.js';

export const FACT = 'the secret code is AZ-4471';

/** What a request says, all of it, as text: to look for the fact wherever it is (a message or a summary). */
export function requestText(request: ReceivedRequest): string {
  return request.body.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');
}

export function isSummaryRequest(request: ReceivedRequest): boolean {
  const system = request.body.messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' && system.content.startsWith('auggy-compaction:');
}

/**
 * The model behind the loopback server: a summary request is answered as a careful model would
 * (the person's words kept); a question for the code is answered from whatever the request holds;
 * any other message gets a short answer naming its turn.
 */
export function modelReply(request: ReceivedRequest): ChatReply {
  const last = request.body.messages[request.body.messages.length - 1];
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  if (isSummaryRequest(request)) return { text: scriptedSummary(text) };
  if (/what is the secret code/i.test(text)) {
    const code = /secret code is ([A-Z]{2}-\d+)/.exec(requestText(request))?.[1];
    return { text: code ? `The secret code is ${code}.` : 'I do not know the secret code.' };
  }
  return { text: `noted ${/^turn (\d+)/.exec(text)?.[1] ?? '?'}` };
}

/** About 1,500 characters of the person's message for turn `n`. */
export function turnMessage(n: number): string {
  const lead = n === 1 ? `turn 1: remember that ${FACT}.` : `turn ${n}: more notes.`;
  return `${lead} ${'lorem ipsum dolor sit amet '.repeat(55)}`.slice(0, 1500);
}

/** An agent on the loopback server whose window is `window` tokens (none stated when undefined). */
export async function agentOnServer(url: string, window: number | undefined, extra = '', folder: Omit<FixtureOptions, 'engine'> = {}) {
  const stated = window !== undefined ? `  maxContextTokens: ${window}\n` : '';
  const dir = makeAgentFolder({
    ...folder,
    engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n  maxTokens: 200\n${stated}${extra}`,
  });
  const target = await loadRunnableAgent(dir, {}, () => undefined);
  return { dir, target, open: (sessionId?: string) => openConversation(target, { sessionId }, () => undefined) };
}
