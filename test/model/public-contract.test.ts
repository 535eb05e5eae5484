import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file imports, type-only imports and `import()` included. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

describe('model calls rest on the providers’ public contract', () => {
  it('no source file imports the AI SDK itself (ai, ai/internal): the providers’ @ai-sdk packages are the contract', () => {
    const offending = sourceFiles(SRC).flatMap((file) =>
      specifiers(file)
        .filter((s) => s === 'ai' || s.startsWith('ai/'))
        .map((s) => `${relative(ROOT, file)}: ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it('ai is only a tool of the tests, on a normal range', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
    expect(pkg.dependencies.ai).toBeUndefined();
    expect(pkg.devDependencies.ai).toMatch(/^\^6\./);
  });

  it('the lock installs one copy of each @ai-sdk package, whatever each provider pins', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    const versions = new Map<string, Set<string>>();
    for (const [path, entry] of Object.entries(lock.packages)) {
      const name = /(?:^|\/)node_modules\/(@ai-sdk\/[^/]+)$/.exec(path)?.[1];
      if (name === undefined || entry.version === undefined) continue;
      versions.set(name, (versions.get(name) ?? new Set()).add(entry.version));
    }
    expect(versions.get('@ai-sdk/provider-utils')?.size).toBe(1);
    expect([...versions].filter(([, found]) => found.size > 1).map(([name, found]) => `${name}: ${[...found].join(', ')}`)).toEqual([]);
  });
});
