import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Diagnostic } from '../../../agent/types.js';
import { schemaDiagnostics } from '../../../agent/schema-issues.js';
import { locateField, parseYamlSource, type FieldPath, type YamlSource } from '../../../agent/yaml-source.js';
import { compileAssertion } from './compile-assertion.js';
import { scenarioDocumentSchema, turnSchema, type TurnEntry } from './scenario-schema.js';
import type { CompiledAssertion, PersonScript, Scenario, ScenarioTurn, SelfPlay } from './types.js';
import { turnMedia } from './turn-media.js';

/** Larger than any scenario a person writes; a bigger file is a mistake (a log, a binary). */
const MAX_SCENARIO_BYTES = 1024 * 1024;

export type LoadedScenario = { scenario: Scenario; diagnostics: [] } | { scenario?: undefined; diagnostics: Diagnostic[] };

function fail(file: string, message: string, line?: number): LoadedScenario {
  return { diagnostics: [{ severity: 'error', file, line, message }] };
}

function readText(path: string, file: string): { text: string } | { error: LoadedScenario } {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { error: fail(file, 'is not a file; name a .scenario.yaml file or the agent folder') };
    if (stat.size > MAX_SCENARIO_BYTES) return { error: fail(file, `is ${stat.size} bytes, more than a scenario file may be (1 MiB)`) };
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: fail(file, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`) };
  }
}

function compileAll(raws: readonly unknown[] | null | undefined, path: FieldPath, source: YamlSource, diagnostics: Diagnostic[]): CompiledAssertion[] {
  return (raws ?? []).flatMap((raw, index) => {
    const compiled = compileAssertion(raw, [...path, index], source);
    diagnostics.push(...compiled.diagnostics);
    return compiled.assertion ? [compiled.assertion] : [];
  });
}

function personOf(turn: TurnEntry): PersonScript {
  const granted = Object.entries(turn.consent_overrides ?? {})
    .filter(([, consent]) => consent === 'grant')
    .map(([tool]) => tool);
  if (turn.person === 'away') return { kind: 'away' };
  if (turn.person === undefined && granted.length === 0) return { kind: 'away' };
  return { kind: 'scripted', answers: turn.person?.answers ?? {}, approve: [...(turn.person?.approve ?? []), ...granted] };
}

function messageOf(turn: TurnEntry): string | undefined {
  if (turn.content !== undefined) return turn.content;
  const texts = (turn.parts ?? []).flatMap((part) => (part.text !== undefined ? [part.text] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function loadTurn(raw: unknown, index: number, source: YamlSource, scenarioDir: string, diagnostics: Diagnostic[]): ScenarioTurn | undefined {
  const path = ['spec', 'turns', index];
  const parsed = turnSchema.safeParse(raw);
  if (!parsed.success) {
    diagnostics.push(...schemaDiagnostics(parsed.error.issues, source, { fieldPrefix: path }));
    return undefined;
  }
  const turn = parsed.data;
  const media = turnMedia(turn.parts, scenarioDir);
  const skip = 'skip' in media ? media.skip : undefined;
  return {
    ...(turn.role !== 'user' && turn.persona !== undefined ? { selfPlay: selfPlayOf(turn.role, turn.persona, turn) } : {}),
    ...(skip ? { skip } : {}),
    images: 'images' in media ? media.images : [],
    index: index + 1,
    line: locateField(source, path)?.line,
    content: messageOf(turn),
    event: turn.event,
    board: Object.entries(turn.board ?? {}).map(([line, text]) => ({ line, text })),
    person: personOf(turn),
    assertions: compileAll(turn.assertions, [...path, 'assertions'], source, diagnostics),
  };
}

/** PromptKit's bounds (selfPlayTurnBounds): `turns` messages, 1 when absent; `max_turns` only when above it. */
export function selfPlayOf(role: string, persona: string, counts: { turns?: number; max_turns?: number }): SelfPlay {
  const turns = counts.turns || 1;
  return { role, persona, turns, maxTurns: Math.max(turns, counts.max_turns ?? 0) };
}

/** The name reports use: metadata.name, else spec.id, else the file name. */
function scenarioName(data: { metadata?: { name?: string }; spec: { id?: string } }, file: string): string {
  return data.metadata?.name ?? data.spec.id ?? basename(file).replace(/(\.scenario)?\.ya?ml$/, '');
}

/**
 * Reads a PromptKit Scenario file (`kind: Scenario`, `spec.turns[]`) as it is, plus auggy's own
 * turn keys. Every problem is a diagnostic at its file:line, and nothing runs until all are fixed.
 */
export function loadScenario(path: string, file: string): LoadedScenario {
  const read = readText(path, file);
  if ('error' in read) return read.error;
  const parsed = parseYamlSource(read.text, file);
  if (!parsed.source) return { diagnostics: parsed.diagnostics };
  const source = parsed.source;
  const data = source.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(file, 'is not a scenario: write a mapping with kind: Scenario and spec.turns (a PromptKit Scenario file)', 1);
  }
  const record = data as Record<string, unknown>;
  if (record.kind !== 'Scenario') {
    const line = locateField(source, ['kind'])?.line ?? 1;
    return fail(file, `kind is ${record.kind === undefined ? 'missing' : JSON.stringify(record.kind)}; a scenario file says kind: Scenario`, line);
  }
  const spec = record.spec as Record<string, unknown> | undefined;
  if (spec && spec.turns === undefined && spec.steps !== undefined) {
    return fail(
      file,
      'spec.steps (a PromptKit workflow scenario) is not run by auggy; write spec.turns, each with role: user and content',
      locateField(source, ['spec', 'steps'])?.line,
    );
  }
  const document = scenarioDocumentSchema.safeParse(data);
  if (!document.success)
    return { diagnostics: schemaDiagnostics(document.error.issues, source, { examples: { 'spec.turns': 'turns: [{role: user, content: "hello"}]' } }) };

  const diagnostics: Diagnostic[] = [];
  const turns = document.data.spec.turns.flatMap((raw, index) => loadTurn(raw, index, source, dirname(path), diagnostics) ?? []);
  const conversationAssertions = compileAll(document.data.spec.conversation_assertions, ['spec', 'conversation_assertions'], source, diagnostics);
  if (diagnostics.length > 0) return { diagnostics };
  return {
    scenario: {
      file,
      folder: resolve(dirname(path)),
      duplex: document.data.spec.duplex !== undefined,
      name: scenarioName(document.data, file),
      id: document.data.spec.id ?? scenarioName(document.data, file),
      description: document.data.spec.description?.trim(),
      line: locateField(source, ['metadata', 'name'])?.line ?? 1,
      trials: document.data.spec.trials,
      turns,
      conversationAssertions,
    },
    diagnostics: [],
  };
}
