/**
 * The part of Go's text/template that PromptKit's tool templates use (`mock_template`, an HTTP
 * tool's URL and header templates): `{{.field}}` and `{{.a.b}}`, `{{if …}}`, `{{else if …}}`,
 * `{{else}}`, `{{end}}`, conditions `.x`, `not .x`, `eq`/`ne` of a field and a literal (or two),
 * and `{{-`/`-}}` trimming. Missing keys render empty (PromptKit parses with missingkey=zero).
 * Anything else is an error that names the action, rather than a wrong result.
 */

type Node = { kind: 'text'; text: string } | { kind: 'value'; expr: string } | { kind: 'if'; branches: { cond: string; body: Node[] }[]; otherwise: Node[] };

interface Token {
  kind: 'text' | 'action';
  text: string;
}

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    if (open < 0) {
      tokens.push({ kind: 'text', text: template.slice(at) });
      break;
    }
    const close = template.indexOf('}}', open + 2);
    if (close < 0) throw new Error('a {{ is never closed with }}');
    let text = template.slice(at, open);
    let action = template.slice(open + 2, close);
    if (action.startsWith('-')) {
      text = text.trimEnd();
      action = action.slice(1);
    }
    const trimAfter = action.endsWith('-');
    if (trimAfter) action = action.slice(0, -1);
    tokens.push({ kind: 'text', text }, { kind: 'action', text: action.trim() });
    at = close + 2;
    if (trimAfter) while (at < template.length && /\s/.test(template[at])) at++;
  }
  return tokens.filter((token) => token.kind === 'action' || token.text !== '');
}

function parse(tokens: Token[]): Node[] {
  let at = 0;
  const block = (stops: readonly string[]): { nodes: Node[]; stop?: string } => {
    const nodes: Node[] = [];
    while (at < tokens.length) {
      const token = tokens[at++];
      if (token.kind === 'text') {
        nodes.push({ kind: 'text', text: token.text });
        continue;
      }
      const word = token.text.split(/\s+/)[0];
      if (stops.includes(word)) return { nodes, stop: token.text };
      if (word === 'if') {
        const branches = [{ cond: token.text.slice(2).trim(), body: [] as Node[] }];
        let otherwise: Node[] = [];
        for (;;) {
          const inner = block(['else', 'end']);
          if (inner.stop === undefined) throw new Error('an {{if}} is never closed with {{end}}');
          branches[branches.length - 1].body = inner.nodes;
          if (inner.stop === 'end') break;
          const elseIf = /^else\s+if\s+(.+)$/.exec(inner.stop);
          if (elseIf) {
            branches.push({ cond: elseIf[1], body: [] });
            continue;
          }
          const rest = block(['end']);
          if (rest.stop === undefined) throw new Error('an {{else}} is never closed with {{end}}');
          otherwise = rest.nodes;
          break;
        }
        nodes.push({ kind: 'if', branches, otherwise });
        continue;
      }
      if (word.startsWith('.')) nodes.push({ kind: 'value', expr: token.text });
      else throw new Error(`{{${token.text}}} is a template action auggy does not render (it renders .field, if, else, end, eq, ne, not)`);
    }
    return { nodes };
  };
  const { nodes, stop } = block([]);
  if (stop !== undefined) throw new Error(`{{${stop}}} has no {{if}} before it`);
  return nodes;
}

function field(data: unknown, path: string): unknown {
  if (path === '.') return data;
  let value = data;
  for (const part of path.slice(1).split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function operand(data: unknown, word: string): unknown {
  if (word.startsWith('.')) return field(data, word);
  if (/^"(?:[^"\\]|\\.)*"$/.test(word)) return JSON.parse(word) as string;
  if (/^-?\d+(\.\d+)?$/.test(word)) return Number(word);
  if (word === 'true' || word === 'false') return word === 'true';
  throw new Error(`"${word}" is not a field or a literal`);
}

function words(expr: string): string[] {
  return expr.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}

function condition(data: unknown, cond: string): boolean {
  const [head, ...args] = words(cond);
  if (head === 'not' && args.length === 1) return !truthy(operand(data, args[0]));
  if ((head === 'eq' || head === 'ne') && args.length >= 2) {
    const first = operand(data, args[0]);
    // Go's eq is true when the first equals any of the rest.
    const equal = args.slice(1).some((arg) => String(operand(data, arg)) === String(first));
    return head === 'eq' ? equal : !equal;
  }
  if (args.length === 0 && head !== undefined) return truthy(operand(data, head));
  throw new Error(`{{if ${cond}}} is a condition auggy does not evaluate (it evaluates .x, not .x, eq and ne)`);
}

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function render(nodes: Node[], data: unknown): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.kind === 'value') return display(operand(data, node.expr));
      const branch = node.branches.find((one) => condition(data, one.cond));
      return render(branch ? branch.body : node.otherwise, data);
    })
    .join('');
}

/** Renders a Go text/template of the supported subset with `data`; throws with a readable message when it cannot. */
export function renderGoTemplate(template: string, data: unknown): string {
  return render(parse(tokenize(template)), data);
}

/** Why a template cannot be rendered here, or undefined when it can: for validate, before any call. */
export function goTemplateProblem(template: string): string | undefined {
  try {
    parse(tokenize(template));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
