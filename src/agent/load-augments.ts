import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nearest } from './suggest.js';
import { augmentYamlSchema, type InlineAugment } from './schema.js';
import { schemaDiagnostics } from './schema-issues.js';
import { formatFieldPath, locateField, parseFieldPath, parseYamlSource, withPosition, type FieldPath, type YamlSource } from './yaml-source.js';
import type { AugmentCatalog, AugmentType, Diagnostic, LoadedAugmentConfig, Severity } from './types.js';
import { readAgentFile } from './read-agent-file.js';

export interface AugmentsLoad {
  augments: LoadedAugmentConfig[];
  /** Listed ids whose type this version does not implement: skipped, and so are their skills. */
  ignored: string[];
  /** The types of those ignored entries: a skill named for the type is theirs too. */
  ignoredTypes: string[];
  diagnostics: Diagnostic[];
  /** The types of the augments loaded, from the catalog: what the skills' tools are checked against. */
  types: readonly AugmentType[];
}

/** A folder name and nothing else: an id must never reach outside `augments/`. */
const FOLDER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function supportedList(known: AugmentCatalog['known']): string {
  return known.map((factory) => factory.type).join(', ');
}

/** Reads and checks one `augments/<id>/augment.yaml`. */
function readAugmentYaml(
  agentDir: string,
  id: string,
  file: string,
): { type?: string; config: Record<string, unknown>; source?: YamlSource; diagnostics: Diagnostic[] } {
  const read = readAgentFile(agentDir, file);
  if (!read.ok) return { config: {}, diagnostics: [{ severity: 'error', file, message: read.message }] };
  const parsed = parseYamlSource(read.text, file);
  if (!parsed.source) return { config: {}, diagnostics: parsed.diagnostics };
  const data = parsed.source.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      config: {},
      diagnostics: [{ severity: 'error', file, line: 1, column: 1, message: `must be a mapping with type: ${id} (and config: only when it has settings)` }],
    };
  }
  // Other releases may write an empty `config:`; that means no settings, not a mistake.
  const raw = data as Record<string, unknown>;
  const checked = augmentYamlSchema.safeParse(raw.config === null ? { ...raw, config: undefined } : raw);
  if (!checked.success) {
    return { config: {}, diagnostics: schemaDiagnostics(checked.error.issues, parsed.source, { examples: { type: `type: ${id}` } }) };
  }
  return { type: checked.data.type, config: checked.data.config ?? {}, source: parsed.source, diagnostics: [] };
}

/** One `augments:` item: a folder name, or an entry written inline (`{name?, type, options}`). */
export type AugmentEntry = string | InlineAugment;

interface Located {
  at(severity: Severity, message: string, field?: FieldPath): Diagnostic;
}

function isInline(entry: AugmentEntry): entry is InlineAugment {
  return typeof entry !== 'string';
}

/** The factory's findings about an inline entry's options, pointed at agent.yaml where it says them. */
function inlineFindings(found: Diagnostic[], file: string, index: number, agentYaml: YamlSource): Diagnostic[] {
  return found.map((diagnostic) => {
    if (diagnostic.file !== file) return diagnostic;
    const rest = diagnostic.field ? parseFieldPath(diagnostic.field).slice(1) : [];
    const path: FieldPath = ['augments', index, 'options', ...rest];
    const position = locateField(agentYaml, path) ?? locateField(agentYaml, ['augments', index]);
    return { ...diagnostic, file: agentYaml.file, field: formatFieldPath(path), line: position?.line, column: position?.column };
  });
}

/** One listed augment as read, before its type's checks run. */
type ReadEntry =
  | { kind: 'inline'; entry: InlineAugment; id: string; index: number; place: Located }
  | { kind: 'folder'; id: string; place: Located; file: string; exists: boolean; read: ReturnType<typeof readAugmentYaml> };

/**
 * Loads every augment agent.yaml lists, in its order. `agentYaml` locates the list items. The
 * entries are read first, so only the types they name are loaded from the catalog.
 */
export async function loadAugments(agentDir: string, entries: readonly AugmentEntry[], agentYaml: YamlSource, catalog: AugmentCatalog): Promise<AugmentsLoad> {
  const result: AugmentsLoad = { augments: [], ignored: [], ignoredTypes: [], diagnostics: [], types: [] };
  const read: ReadEntry[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const place: Located = {
      at: (severity, message, field = ['augments', index]) => {
        const position = locateField(agentYaml, field) ?? locateField(agentYaml, ['augments', index]);
        return { severity, file: agentYaml.file, line: position?.line, column: position?.column, field: formatFieldPath(field), message };
      },
    };
    const id = isInline(entry) ? (entry.name ?? entry.type) : entry;
    if (!FOLDER_NAME.test(id)) {
      const what = isInline(entry)
        ? `name "${id}" is not usable as an augment id; use letters, digits, _ . and -`
        : `"${id}" is not an augment folder name; list the name of a folder under augments/`;
      result.diagnostics.push(place.at('error', what));
      return;
    }
    if (seen.has(id)) {
      result.diagnostics.push(place.at('error', `${id} is listed twice; remove one of the lines${isInline(entry) ? ', or give one another name:' : ''}`));
      return;
    }
    seen.add(id);
    if (isInline(entry)) {
      read.push({ kind: 'inline', entry, id, index, place });
      return;
    }
    const file = `augments/${id}/augment.yaml`;
    const exists = existsSync(join(agentDir, file));
    read.push({ kind: 'folder', id, place, file, exists, read: exists ? readAugmentYaml(agentDir, id, file) : { type: id, config: {}, diagnostics: [] } });
  });
  const named = read.map((item) => (item.kind === 'inline' ? item.entry.type : item.read.type)).filter((type): type is string => type !== undefined);
  const types = await catalog.load([...new Set(named)]);
  for (const item of read) {
    if (item.kind === 'inline') loadInline(agentDir, item.entry, item.id, item.index, agentYaml, item.place, result, types, catalog.known);
    else loadFolder(agentDir, item, result, types, catalog.known);
  }
  return { ...result, types };
}

function ignore(agentDir: string, id: string, type: string, place: Located, result: AugmentsLoad, known: AugmentCatalog['known']): void {
  const typeNote = type === id ? '' : ` (type ${type})`;
  result.ignored.push(id);
  result.ignoredTypes.push(type);
  const skillDirs = [...new Set([id, type])].filter((name) => existsSync(join(agentDir, 'skills', name)));
  const skillNote = skillDirs.length > 0 ? `, and so is ${skillDirs.map((name) => `skills/${name}`).join(' and ')}` : '';
  // A near miss (userAks) is a typo far more often than another release's augment.
  const guess = nearest(
    type,
    known.map((entry) => entry.type),
  );
  const hint = guess ? ` (did you mean ${guess}?)` : '';
  result.diagnostics.push(
    place.at('warning', `${id}${typeNote} is not supported here, ignored${hint}${skillNote}; this auggy implements ${supportedList(known)}`),
  );
}

function loadInline(
  agentDir: string,
  entry: InlineAugment,
  id: string,
  index: number,
  agentYaml: YamlSource,
  place: Located,
  result: AugmentsLoad,
  types: readonly AugmentType[],
  known: AugmentCatalog['known'],
): void {
  const factory = types.find((candidate) => candidate.type === entry.type);
  if (!factory) {
    ignore(agentDir, id, entry.type, place, result, known);
    return;
  }
  const config = entry.options ?? {};
  const file = `augments/${id}/augment.yaml`;
  if (existsSync(join(agentDir, file))) {
    result.diagnostics.push(place.at('warning', `${id} is written inline here, so ${file} is not read; keep one of the two`));
  }
  result.diagnostics.push(...inlineFindings(factory.validateConfig(config, file, agentDir), file, index, agentYaml));
  result.augments.push({ id, type: entry.type, config });
}

function loadFolder(
  agentDir: string,
  item: Extract<ReadEntry, { kind: 'folder' }>,
  result: AugmentsLoad,
  types: readonly AugmentType[],
  known: AugmentCatalog['known'],
): void {
  const { id, place, file, exists, read } = item;
  result.diagnostics.push(...read.diagnostics);
  if (read.type === undefined) return;

  const factory = types.find((candidate) => candidate.type === read.type);
  if (!factory) {
    ignore(agentDir, id, read.type, place, result, known);
    return;
  }
  if (!exists) {
    result.diagnostics.push(place.at('warning', `${file} is missing, so ${id} runs with its default settings; add the file with the line: type: ${id}`));
  }
  if (read.source) {
    const source = read.source;
    // Findings about other files (a workflow's pack) carry their own positions.
    const found = factory.validateConfig(read.config, file, agentDir);
    result.diagnostics.push(...found.map((diagnostic) => (diagnostic.file === file ? withPosition(source, diagnostic) : diagnostic)));
  }
  result.augments.push({ id, type: read.type, config: read.config, file: exists ? file : undefined });
}
