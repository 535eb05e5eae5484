import { Text } from 'ink';
import { common, createLowlight } from 'lowlight';
import type { ReactNode } from 'react';
import { usePalette, type Tint } from '../palette.js';

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

function spans(nodes: HastNode[], syntax: Readonly<Record<string, Tint>>, inherited: Tint, key: string): ReactNode[] {
  return nodes.map((node, index) => {
    const at = `${key}.${index}`;
    if (node.type === 'text') return inherited ? <Text key={at} color={inherited}>{node.value}</Text> : node.value;
    if (node.type !== 'element') return null;
    const tint = tintOf(scopeOf(node), syntax) ?? inherited;
    return <Text key={at}>{spans(node.children, syntax, tint, at)}</Text>;
  });
}

function runs(nodes: HastNode[], syntax: Readonly<Record<string, Tint>>, inherited: Tint, into: { text: string; tint: Tint }[]): void {
  for (const node of nodes) {
    if (node.type === 'text') into.push({ text: node.value, tint: inherited });
    else if (node.type === 'element') runs(node.children, syntax, tintOf(scopeOf(node), syntax) ?? inherited, into);
  }
}

/** The same colouring as HighlightedCode, as runs of text each in one colour (for printing it as text). */
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

/** Code, coloured by highlight.js's grammar for `language`; plain when it has none or colour is off. */
export function HighlightedCode({ code, language }: { code: string; language?: string }) {
  const { syntax } = usePalette();
  if (!knownLanguage(language) || Object.keys(syntax).length === 0) return <Text>{code}</Text>;
  const tree = grammars().highlight(language, code);
  return <Text>{spans(tree.children as HastNode[], syntax, undefined, 'c')}</Text>;
}
