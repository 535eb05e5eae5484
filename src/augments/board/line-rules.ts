import { nearest } from '../../agent/suggest.js';
import { MAX_LINE_CHARS, type LineSpec, type Owner, type Writer } from './config.js';

/** Whether a side may write a line with this owner; both sides read every line. */
export function mayWrite(owner: Owner, writer: Writer): boolean {
  return owner === 'both' || owner === writer;
}

function ownerPhrase(owner: Owner): string {
  return owner === 'both' ? 'both sides' : `the ${owner}`;
}

function linesList(specs: readonly LineSpec[]): string {
  return specs.map((spec) => `${spec.name} (${spec.owner})`).join(', ');
}

/** The lines a side may write, for a refusal that says where the write could go instead. */
export function writableLines(specs: readonly LineSpec[], writer: Writer): string[] {
  return specs.filter((spec) => mayWrite(spec.owner, writer)).map((spec) => spec.name);
}

/**
 * Why `writer` may not put `text` on line `name`, or undefined when it may. Written with "you" as
 * the writer, so the same sentence serves the model (a tool error) and the person (a refusal).
 */
export function writeRefusal(specs: readonly LineSpec[], name: string, text: string, writer: Writer): string | undefined {
  const spec = specs.find((candidate) => candidate.name === name);
  if (!spec) {
    const guess = nearest(
      name,
      specs.map((candidate) => candidate.name),
    );
    return `the board has no line "${name}"${guess ? ` (did you mean ${guess}?)` : ''}; its lines are ${linesList(specs)}`;
  }
  if (!mayWrite(spec.owner, writer)) {
    const open = writableLines(specs, writer);
    const elsewhere = open.length > 0 ? `; lines you can write: ${open.join(', ')}` : '; no line is yours to write';
    return `line "${name}" belongs to ${ownerPhrase(spec.owner)} (owner: ${spec.owner}): you can read it but not write it${elsewhere}`;
  }
  if (text.length > MAX_LINE_CHARS) {
    return `the text for line "${name}" is ${text.length} characters; a board line holds at most ${MAX_LINE_CHARS}, so shorten it`;
  }
  return undefined;
}

/** How the person sees a line's owner: their own lines are "you". */
export function ownerMark(owner: Owner): 'you' | 'agent' | 'both' {
  return owner === 'person' ? 'you' : owner;
}
