import { readFileSync } from 'node:fs';

interface LoggedMessage {
  turnId: string;
  role: string;
  callIds: string[];
  resultIds: string[];
  text: string;
}

type Part = { type?: string; toolCallId?: string; text?: string };

/** The conversation exactly as events.jsonl holds it, in file order, with nothing repaired. */
export function loggedMessages(eventsFile: string): LoggedMessage[] {
  const messages: LoggedMessage[] = [];
  // A message entry may refer to the text its TEXT_MESSAGE_CONTENT entries logged (textFrom).
  const shown = new Map<string, string>();
  for (const line of readFileSync(eventsFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as {
      kind: string;
      turnId?: string;
      text?: string;
      textFrom?: string[];
      event?: { type: string; messageId?: string; delta?: string };
      message?: { role: string; content: string | Part[] };
    };
    if (entry.kind === 'event' && entry.event?.type === 'TEXT_MESSAGE_CONTENT' && entry.event.messageId)
      shown.set(entry.event.messageId, (shown.get(entry.event.messageId) ?? '') + (entry.event.delta ?? ''));
    if (entry.kind === 'user') messages.push({ turnId: entry.turnId ?? '', role: 'user', callIds: [], resultIds: [], text: entry.text ?? '' });
    if (entry.kind !== 'message' || !entry.message) continue;
    const logged = (entry.textFrom ?? []).map((id) => shown.get(id) ?? '').join('');
    const own = typeof entry.message.content === 'string' ? [{ type: 'text', text: entry.message.content }] : entry.message.content;
    const parts: Part[] = logged ? [{ type: 'text', text: logged }, ...own] : own;
    messages.push({
      turnId: entry.turnId ?? '',
      role: entry.message.role,
      callIds: parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId ?? ''),
      resultIds: parts.filter((p) => p.type === 'tool-result').map((p) => p.toolCallId ?? ''),
      text: parts.map((p) => p.text ?? '').join(''),
    });
  }
  return messages;
}

/**
 * What a server enforcing OpenAI's transcript rules would refuse in a session: a tool result
 * that does not directly follow its call, a call left unanswered, or two turns interleaved.
 */
export function transcriptProblems(eventsFile: string): string[] {
  const problems: string[] = [];
  const messages = loggedMessages(eventsFile);
  const finishedTurns = new Set<string>();
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (previous && previous.turnId !== message.turnId) {
      finishedTurns.add(previous.turnId);
      if (finishedTurns.has(message.turnId)) problems.push(`message ${index} continues turn ${message.turnId} after another turn began`);
    }
    if (message.role === 'tool') {
      const calls = previous?.role === 'assistant' ? previous.callIds : [];
      const stray = message.resultIds.filter((id) => !calls.includes(id));
      if (stray.length > 0) problems.push(`message ${index}: tool result ${stray.join(', ')} does not follow its call`);
    }
    if (message.callIds.length > 0) {
      const next = messages[index + 1];
      const answered = next?.role === 'tool' ? next.resultIds : [];
      const missing = message.callIds.filter((id) => !answered.includes(id));
      if (missing.length > 0) problems.push(`message ${index}: tool call ${missing.join(', ')} is not answered by the next message`);
    }
  });
  return problems;
}
