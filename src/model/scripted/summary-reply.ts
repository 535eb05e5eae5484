import { SUMMARY_HEADINGS, SUMMARY_LINE } from '../summary-request.js';

/** How many of the person's lines the scripted summary keeps from the start and from the end. */
const KEPT_AT_EACH_END = 12;
const LINE_CHARS = 160;

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}

/** The bullets an earlier summary kept under "Facts and names that must survive". */
function earlierFacts(lines: readonly string[]): string[] {
  const facts: string[] = [];
  let inFacts = false;
  for (const line of lines) {
    if (line.startsWith('## ')) inFacts = line.slice(3).trim() === 'Facts and names that must survive';
    else if (inFacts && line.startsWith('- ') && line !== '- none') facts.push(line.slice(2));
  }
  return facts;
}

/**
 * The scripted provider's answer to a summary request that no script rule answers: what the
 * person said, kept word for word (cut to a line each), the first and the latest of it, under the
 * fixed headings. No model is involved, so it is the same every run, and a fact the person gave
 * in the first turn survives every compaction, as a real model is asked to keep it.
 */
export function scriptedSummary(prompt: string): string {
  const lines = prompt.split('\n');
  const said = [
    ...earlierFacts(lines),
    ...lines.filter((line) => line.startsWith(SUMMARY_LINE.person)).map((line) => cut(line.slice(SUMMARY_LINE.person.length))),
  ].filter((line) => line !== '');
  const facts = said.length > 2 * KEPT_AT_EACH_END ? [...said.slice(0, KEPT_AT_EACH_END), ...said.slice(-KEPT_AT_EACH_END)] : said;
  const latest = said[said.length - 1];
  const section = (heading: string, bullets: readonly string[]) => [`## ${heading}`, ...(bullets.length > 0 ? bullets.map((b) => `- ${b}`) : ['- none'])];
  const body: Record<(typeof SUMMARY_HEADINGS)[number], string[]> = {
    'What the person wants': latest ? [latest] : [],
    'Decisions made': [],
    'What was done': [`${said.length} message${said.length === 1 ? '' : 's'} from the person so far`],
    'What is open': [],
    'Facts and names that must survive': facts,
    'Files and resources touched': [],
  };
  return SUMMARY_HEADINGS.flatMap((heading) => section(heading, body[heading])).join('\n');
}
