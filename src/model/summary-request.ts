/**
 * The words that open the system prompt of a request to summarise a conversation (compaction).
 * They live here, below the kernel that writes the request, so that the scripted provider can
 * recognise one and answer it deterministically instead of with a rule meant for the person.
 */
export const SUMMARY_REQUEST_MARKER = 'auggy-compaction:';

/** The headings every summary is written under, in this order. */
export const SUMMARY_HEADINGS = [
  'What the person wants',
  'Decisions made',
  'What was done',
  'What is open',
  'Facts and names that must survive',
  'Files and resources touched',
] as const;

/** How the conversation to summarise is laid out in the request: one line per message, led by who said it. */
export const SUMMARY_LINE = { person: 'person: ', assistant: 'assistant: ', tool: 'tool result: ', earlier: 'earlier summary:' } as const;

/** Whether a system prompt is that of a summary request. */
export function isSummaryRequest(system: string): boolean {
  return system.startsWith(SUMMARY_REQUEST_MARKER);
}
