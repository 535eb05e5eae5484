import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_AUGMENTS, findAugmentFactory } from '../augments/registry.js';
import { nearest } from './suggest.js';
import { augmentYamlSchema } from './schema.js';
import { schemaDiagnostics } from './schema-issues.js';
import { locateField, parseYamlSource, withPosition, type YamlSource } from './yaml-source.js';
import type { Diagnostic, LoadedAugmentConfig, Severity } from './types.js';

export interface AugmentsLoad {
  augments: LoadedAugmentConfig[];
  /** Listed ids whose type this version does not implement: skipped, and so are their skills. */
  ignored: string[];
  diagnostics: Diagnostic[];
}

/** A folder name and nothing else: an id must never reach outside `augments/`. */
const FOLDER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function supportedList(): string {
  return BUILTIN_AUGMENTS.map((factory) => factory.type).join(', ');
}

/** Reads and checks one `augments/<id>/augment.yaml`. */
function readAugmentYaml(agentDir: string, id: string, file: string): { type?: string; config: Record<string, unknown>; source?: YamlSource; diagnostics: Diagnostic[] } {
  const parsed = parseYamlSource(readFileSync(join(agentDir, file), 'utf8'), file);
  if (!parsed.source) return { config: {}, diagnostics: parsed.diagnostics };
  const data = parsed.source.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { config: {}, diagnostics: [{ severity: 'error', file, line: 1, column: 1, message: `must be a mapping with type: ${id} (and config: only when it has settings)` }] };
  }
  // Other releases may write an empty `config:`; that means no settings, not a mistake.
  const raw = data as Record<string, unknown>;
  const checked = augmentYamlSchema.safeParse(raw.config === null ? { ...raw, config: undefined } : raw);
  if (!checked.success) {
    return { config: {}, diagnostics: schemaDiagnostics(checked.error.issues, parsed.source, { examples: { type: `type: ${id}` } }) };
  }
  return { type: checked.data.type, config: checked.data.config ?? {}, source: parsed.source, diagnostics: [] };
}

/** Loads every augment agent.yaml lists, in its order. `agentYaml` locates the list items. */
export function loadAugments(agentDir: string, ids: readonly string[], agentYaml: YamlSource): AugmentsLoad {
  const result: AugmentsLoad = { augments: [], ignored: [], diagnostics: [] };
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    const at = (severity: Severity, message: string): Diagnostic => {
      const position = locateField(agentYaml, ['augments', index]);
      return { severity, file: agentYaml.file, line: position?.line, column: position?.column, field: `augments[${index}]`, message };
    };
    if (!FOLDER_NAME.test(id)) {
      result.diagnostics.push(at('error', `"${id}" is not an augment folder name; list the name of a folder under augments/`));
      return;
    }
    if (seen.has(id)) {
      result.diagnostics.push(at('error', `${id} is listed twice; remove one of the lines`));
      return;
    }
    seen.add(id);

    const file = `augments/${id}/augment.yaml`;
    const exists = existsSync(join(agentDir, file));
    const read = exists ? readAugmentYaml(agentDir, id, file) : { type: id, config: {}, diagnostics: [] };
    result.diagnostics.push(...read.diagnostics);
    if (read.type === undefined) return;

    const factory = findAugmentFactory(read.type);
    if (!factory) {
      const typeNote = read.type === id ? '' : ` (type ${read.type})`;
      result.ignored.push(id);
      const skillNote = existsSync(join(agentDir, 'skills', id)) ? `, and so is skills/${id}` : '';
      // A near miss (userAks) is a typo far more often than another release's augment.
      const guess = nearest(read.type, BUILTIN_AUGMENTS.map((known) => known.type));
      const hint = guess ? ` (did you mean ${guess}?)` : '';
      result.diagnostics.push(at('warning', `${id}${typeNote} is not supported here, ignored${hint}${skillNote}; this auggy implements ${supportedList()}`));
      return;
    }
    if (!exists) {
      result.diagnostics.push(at('warning', `${file} is missing, so ${id} runs with its default settings; add the file with the line: type: ${id}`));
    }
    if (read.source) {
      const source = read.source;
      // Findings about other files (a workflow's pack) carry their own positions.
      const found = factory.validateConfig(read.config, file, agentDir);
      result.diagnostics.push(...found.map((diagnostic) => (diagnostic.file === file ? withPosition(source, diagnostic) : diagnostic)));
    }
    result.augments.push({ id, type: read.type, config: read.config, file: exists ? file : undefined });
  });
  return result;
}
