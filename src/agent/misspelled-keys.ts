import { agentYamlSchema, engineSchema, settingsSchema } from './schema.js';
import { nearest } from './suggest.js';
import type { Diagnostic } from './types.js';
import { locateField, type YamlSource } from './yaml-source.js';

/** The mappings of agent.yaml whose keys auggy reads, by where they are written. */
const READ_KEYS: readonly { path: readonly string[]; keys: readonly string[] }[] = [
  { path: [], keys: Object.keys(agentYamlSchema.shape) },
  { path: ['engine'], keys: Object.keys(engineSchema.shape) },
  { path: ['settings'], keys: Object.keys(settingsSchema.shape) },
];

function mappingAt(data: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let node = data;
  for (const segment of path) node = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/**
 * Warnings for keys that look like a typo of a key auggy reads (`enigne:` for `engine:`). Unknown
 * keys are otherwise kept and ignored, since other auggy releases write more; so only a key close
 * to one that the same mapping lacks is named, which a key of another release rarely is.
 */
export function misspelledKeys(source: YamlSource): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const { path, keys } of READ_KEYS) {
    const mapping = mappingAt(source.data, path);
    if (!mapping) continue;
    const absent = keys.filter((key) => !(key in mapping));
    for (const written of Object.keys(mapping)) {
      if (keys.includes(written)) continue;
      const meant = nearest(written, absent);
      if (!meant) continue;
      const field = [...path, written];
      found.push({
        severity: 'warning',
        file: source.file,
        field: field.join('.'),
        ...locateField(source, field),
        message: `not a key auggy reads, so it is ignored; did you mean ${meant}:?`,
      });
    }
  }
  return found;
}
