import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import type { Diagnostic, Severity } from './types.js';

/** A parsed YAML file that can still answer "which line is this field on?". */
export interface YamlSource {
  /** Path relative to the agent folder, as diagnostics name it. */
  file: string;
  doc: Document;
  lineCounter: LineCounter;
  /** Lines before the YAML text in its file (SKILL.md front matter starts after `---`). */
  lineOffset: number;
  data: unknown;
}

export interface Position {
  line: number;
  column: number;
}

export type FieldPath = readonly (string | number)[];

/** `config.items.0` or `augments[2]` → ['config', 'items', '0'] / ['augments', 2]. */
export function parseFieldPath(field: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const part of field.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    if (match[1] !== '') segments.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** ['augments', 2, 'x'] → `augments[2].x`, the form diagnostics show. */
export function formatFieldPath(path: FieldPath): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}

/** The parser's first message line, without the "at line 3, column 1:" it repeats from linePos. */
function parserMessage(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/** The parser runs out of stack on lists or mappings nested hundreds deep, and says so in V8's words. */
const TOO_DEEP = /Maximum call stack size exceeded/;
const TOO_DEEP_MESSAGE = 'nests lists or mappings too deeply to be read (hundreds of levels); flatten it there';

/** Parses YAML text; syntax errors come back as diagnostics with the parser's line and column. */
export function parseYamlSource(
  text: string,
  file: string,
  options: { lineOffset?: number; severity?: Severity } = {},
): { source?: YamlSource; diagnostics: Diagnostic[] } {
  const lineOffset = options.lineOffset ?? 0;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    const diagnostics = doc.errors.map((error): Diagnostic => {
      const at = error.linePos?.[0];
      return {
        severity: options.severity ?? 'error',
        file,
        line: at ? at.line + lineOffset : undefined,
        column: at?.col,
        message: TOO_DEEP.test(error.message) ? TOO_DEEP_MESSAGE : `${parserMessage(error.message)}; fix the YAML syntax there`,
      };
    });
    return { diagnostics };
  }
  let data: unknown;
  try {
    // The parser's own limit on alias expansion (maxAliasCount) stops a "billion laughs" file here.
    data = doc.toJS();
  } catch (error) {
    const bomb = error instanceof Error && /alias/i.test(error.message);
    const message =
      error instanceof RangeError && TOO_DEEP.test(error.message)
        ? TOO_DEEP_MESSAGE
        : bomb
          ? 'repeats YAML aliases (*name) so often that reading it would exhaust memory (an alias bomb), so it is refused; write the values out'
          : `cannot be read as data (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); fix the YAML there`;
    return { diagnostics: [{ severity: options.severity ?? 'error', file, line: lineOffset + 1, column: 1, message }] };
  }
  return { source: { file, doc, lineCounter, lineOffset, data }, diagnostics: [] };
}

function positionOf(source: YamlSource, offset: number): Position {
  const { line, col } = source.lineCounter.linePos(offset);
  return { line: line + source.lineOffset, column: col };
}

/**
 * Where a field is written: the key of a mapping entry, or the item of a list. A field that is
 * absent points at its nearest written parent; a top-level field that is absent has no position.
 */
export function locateField(source: YamlSource, path: FieldPath): Position | undefined {
  let node: unknown = source.doc.contents;
  let found: number | undefined = path.length === 0 && isMap(node) ? node.range?.[0] : undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      const key = pair.key;
      found = isScalar(key) ? key.range?.[0] : found;
      node = pair.value;
    } else if (isSeq(node)) {
      const item: unknown = node.items[Number(segment)];
      const range = item !== null && typeof item === 'object' && 'range' in item ? (item as { range?: [number, number, number] }).range : undefined;
      if (!range) break;
      found = range[0];
      node = item;
    } else {
      break;
    }
  }
  return found === undefined ? undefined : positionOf(source, found);
}

/** Fills a diagnostic's line and column from its `field`, when the field can be found. */
export function withPosition(source: YamlSource, diagnostic: Diagnostic): Diagnostic {
  if (diagnostic.line !== undefined || diagnostic.field === undefined) return diagnostic;
  const position = locateField(source, parseFieldPath(diagnostic.field));
  return position ? { ...diagnostic, line: position.line, column: position.column } : diagnostic;
}

/** The value at a path in plain data, for messages that quote what was written. */
export function valueAt(data: unknown, path: FieldPath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
