import { common, createLowlight } from 'lowlight';
import type { Tint } from '../palette.js';

/**
 * The common languages of highlight.js (about 37: js, ts, python, sh, json, yaml, go, rust, ...),
 * registered on the first code block: registering them all took a good part of the chat
 * module's start (profiled), before the first frame, for a chat that may never show code.
 */
let registered: ReturnType<typeof createLowlight> | undefined;
function grammars(): ReturnType<typeof createLowlight> {
  registered ??= createLowlight(common);
  return registered;
}

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: 'comment' | 'doctype' };

/** `['hljs-title', 'function_']` → `title.function`, the scope a palette names. */
function scopeOf(node: HastElement): string | undefined {
  const classes = Array.isArray(node.properties?.className) ? (node.properties.className as string[]) : [];
  const [first, ...more] = classes;
  if (!first) return undefined;
  const base = first.replace(/^hljs-/, '');
  const sub = more.find((name) => name.endsWith('_'));
  return sub ? `${base}.${sub.slice(0, -1)}` : base;
}

function tintOf(scope: string | undefined, syntax: Readonly<Record<string, Tint>>): Tint {
  if (!scope) return undefined;
  return syntax[scope] ?? syntax[scope.split('.')[0]];
}

function runs(nodes: HastNode[], syntax: Readonly<Record<string, Tint>>, inherited: Tint, into: { text: string; tint: Tint }[]): void {
  for (const node of nodes) {
    if (node.type === 'text') into.push({ text: node.value, tint: inherited });
    else if (node.type === 'element') runs(node.children, syntax, tintOf(scopeOf(node), syntax) ?? inherited, into);
  }
}

/** Code coloured by highlight.js's grammar for `language`, as runs of text each in one colour; one plain run when it has none or colour is off. */
export function highlightRuns(code: string, language: string | undefined, syntax: Readonly<Record<string, Tint>>): { text: string; tint: Tint }[] {
  if (!knownLanguage(language) || Object.keys(syntax).length === 0) return [{ text: code, tint: undefined }];
  const into: { text: string; tint: Tint }[] = [];
  runs(grammars().highlight(language, code).children as HastNode[], syntax, undefined, into);
  return into;
}

/** Whether code in this language can be highlighted (`js`, `typescript`, `bash`, ...). */
export function knownLanguage(language: string | undefined): language is string {
  return language !== undefined && language !== '' && grammars().registered(language);
}
