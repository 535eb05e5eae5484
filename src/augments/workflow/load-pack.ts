import { isAbsolute, relative, resolve } from 'node:path';
import { schemaDiagnostics } from '../../agent/schema-issues.js';
import type { Diagnostic } from '../../agent/types.js';
import { readAgentFile } from '../../agent/read-agent-file.js';
import { parseYamlSource, type YamlSource } from '../../agent/yaml-source.js';
import { PACK_FIELD_EXAMPLES, packSchema, type PackFile } from './pack-schema.js';

export interface LoadedPack {
  /** Absolute path of the pack file. */
  path: string;
  /** The path diagnostics name: relative to the agent folder when inside it. */
  file: string;
  source?: YamlSource;
  /** Set when the file parsed and has the published shape (semantic checks may still fail). */
  pack?: PackFile;
  diagnostics: Diagnostic[];
}

/** Where the pack named by `config.pack` lives, and how diagnostics should name it. */
export function packLocation(agentDir: string, packPath: string): { path: string; file: string } {
  const path = isAbsolute(packPath) ? packPath : resolve(agentDir, packPath);
  const rel = relative(agentDir, path);
  return { path, file: rel.startsWith('..') || isAbsolute(rel) ? path : rel };
}

/**
 * Reads and parses a PromptPack (YAML, or JSON, which the YAML parser reads too) and checks its
 * shape. Problems come back as diagnostics with the pack's line and column, never as a throw.
 */
export function loadPackFile(agentDir: string, packPath: string): LoadedPack {
  const { path, file } = packLocation(agentDir, packPath);
  // Inside the folder after links, a regular file, at most 1 MiB: a pack is sent to the model too.
  const read = readAgentFile(agentDir, packPath);
  if (!read.ok) {
    return {
      path,
      file,
      diagnostics: [{ severity: 'error', file, message: `the workflow pack ${read.message}; check config.pack in augments/workflow/augment.yaml` }],
    };
  }
  const parsed = parseYamlSource(read.text, file);
  if (!parsed.source) return { path, file, diagnostics: parsed.diagnostics };
  const source = parsed.source;
  if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
    return {
      path,
      file,
      source,
      diagnostics: [{ severity: 'error', file, line: 1, column: 1, message: 'a PromptPack must be a mapping with prompts and workflow' }],
    };
  }
  const result = packSchema.safeParse(source.data);
  if (!result.success) {
    return { path, file, source, diagnostics: schemaDiagnostics(result.error.issues, source, { examples: PACK_FIELD_EXAMPLES }) };
  }
  return { path, file, source, pack: result.data, diagnostics: [] };
}
