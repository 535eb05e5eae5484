import { common, createLowlight } from 'lowlight';
import type { ElementContent, RootContent } from 'hast';
import type { ReactNode } from 'react';

/** Registered on the first code block: a page may never show code. */
let grammars: ReturnType<typeof createLowlight> | undefined;

type HastNode = RootContent | ElementContent;

/** lowlight's tree as React spans: text stays text, so nothing in a code block is ever markup. */
function toReact(nodes: readonly HastNode[], key = 'h'): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const classes = Array.isArray(node.properties?.className) ? (node.properties.className as string[]).join(' ') : undefined;
    return (
      <span key={`${key}-${index}`} className={classes}>
        {toReact(node.children, `${key}-${index}`)}
      </span>
    );
  });
}

/** The code, coloured when its language is known (or guessed among the common ones). */
export function HighlightedCode({ code, lang }: { code: string; lang?: string }) {
  grammars ??= createLowlight(common);
  const language = lang?.trim().split(/\s/)[0];
  const tree = language && grammars.registered(language) ? grammars.highlight(language, code) : grammars.highlightAuto(code);
  return (
    <pre className="code">
      <code className="hljs">{toReact(tree.children)}</code>
    </pre>
  );
}
