import type { PackPrompt } from './pack-schema.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The placeholder pattern for a pack's template_engine.syntax (`{{variable}}`, `${variable}`, ...). */
function placeholderPattern(syntax: string): RegExp {
  const at = syntax.indexOf('variable');
  const [open, close] = at < 0 ? ['{{', '}}'] : [syntax.slice(0, at), syntax.slice(at + 'variable'.length)];
  if (open === '' && close === '') return placeholderPattern('{{variable}}');
  return new RegExp(`${escapeRegExp(open)}\\s*([A-Za-z_][\\w.-]*)\\s*${escapeRegExp(close)}`, 'g');
}

function lookup(values: Record<string, unknown>, name: string): unknown {
  if (name in values) return values[name];
  // `{{artifacts.commit_sha}}` reads into a carried object.
  let value: unknown = values;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Substitutes placeholders. A value nobody has provided yet renders empty rather than as a raw
 * placeholder, which a model would otherwise read as an instruction to fill in.
 */
export function renderTemplate(template: string, syntax: string, values: Record<string, unknown>): string {
  return template.replace(placeholderPattern(syntax), (_match, name: string) => display(lookup(values, name)));
}

/**
 * The values a state's prompt sees: its variables' defaults, then augment.yaml's, then the carried
 * context, then the person's answers from ask states under `answers` and the RFC 0009 artifacts
 * under `artifacts` (each when there are any, so a pack that carries its own `answers` or
 * `artifacts` in context keeps it until the workflow has some).
 */
export function templateValues(
  prompt: PackPrompt | undefined,
  configured: Record<string, unknown>,
  context: Record<string, unknown>,
  answers: Record<string, string> = {},
  artifacts: Record<string, string> = {},
): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  const declared = prompt?.variables;
  if (Array.isArray(declared)) {
    for (const variable of declared) if (variable.default !== undefined) defaults[variable.name] = variable.default;
  } else if (declared) {
    Object.assign(defaults, declared);
  }
  return {
    ...defaults,
    ...configured,
    ...context,
    ...(Object.keys(answers).length > 0 ? { answers } : {}),
    ...(Object.keys(artifacts).length > 0 ? { artifacts } : {}),
  };
}
