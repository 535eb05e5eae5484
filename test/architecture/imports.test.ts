import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/**
 * What each layer may import besides itself (docs/architecture.md). Arrows point one way:
 * cli → hosts → augments → kernel → model, session, agent; model reads the agent's engine config.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  cli: ['hosts', 'augments', 'kernel', 'model', 'session', 'agent'],
  hosts: ['augments', 'kernel', 'model', 'session', 'agent'],
  augments: ['kernel', 'model', 'session', 'agent'],
  kernel: ['model', 'session', 'agent'],
  model: ['agent'],
  session: [],
  agent: [],
};

interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` or `./x.tsx` in src/. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Every relative import of every file: static, type-only, re-exports and dynamic import(). */
function importEdges(): ImportEdge[] {
  return sourceFiles(SRC).flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return importedFiles
      .filter((imported) => imported.fileName.startsWith('.'))
      .map((imported) => ({ from: file, to: resolveSpecifier(file, imported.fileName) ?? '', specifier: imported.fileName }));
  });
}

const layerOf = (file: string) => relative(SRC, file).split('/')[0];
const shown = (file: string) => relative(SRC, file);

/** Groups of files that import each other in a circle (Tarjan's strongly connected components). */
function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (next.get(file) ?? []).includes(file)) found.push(group.map(shown).sort());
  };
  for (const file of sourceFiles(SRC)) if (!index.has(file)) visit(file);
  return found;
}

describe('the direction of imports', () => {
  const edges = importEdges();

  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.some((edge) => edge.specifier.startsWith('../'))).toBe(true);
  });

  it('resolves every relative import to a file in src/', () => {
    expect(edges.filter((edge) => edge.to === '').map((edge) => `${shown(edge.from)} imports ${edge.specifier}`)).toEqual([]);
  });

  it('puts every folder of src/ in a layer', () => {
    const folders = [...new Set(sourceFiles(SRC).map(layerOf))];
    expect(folders.filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
  });

  it('points every import down: cli → hosts → augments → kernel → model, session, agent', () => {
    const upward = edges
      .filter((edge) => edge.to !== '' && layerOf(edge.from) !== layerOf(edge.to))
      .filter((edge) => !(MAY_IMPORT[layerOf(edge.from)] ?? []).includes(layerOf(edge.to)))
      .map((edge) => `${shown(edge.from)} imports ${shown(edge.to)}`);
    expect(upward).toEqual([]);
  });

  it('has no circular imports, type-only ones included', () => {
    expect(cycles(edges.filter((edge) => edge.to !== ''))).toEqual([]);
  });
});
