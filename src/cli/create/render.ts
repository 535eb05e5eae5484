import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse, stringify } from 'yaml';
import { agentYamlSchema } from '../../agent/schema.js';
import { knownContextWindow } from '../../agent/model-windows.js';
import { providerKeyVariable } from '../../agent/provider-keys.js';
import { findAugmentFactory } from '../../augments/registry.js';
import type { CreateAnswers } from './answers.js';
import { packagePath } from '../package-root.js';

/** One file of the new folder, by path relative to it (always with `/`). */
export interface ScaffoldFile {
  path: string;
  content: string;
}

/** `templates/` at the package root, wherever this module runs from. */
export const TEMPLATES_DIR = packagePath('templates');

/** Fills `{{key}}` markers; a marker without a value is a broken template, so it throws. */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>, template: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`templates/${template} has {{${key}}}, which create does not fill`);
    return value;
  });
}

/** A value as a YAML scalar, quoted only when it needs to be (`purpose: "Deploy: fast"`). */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

function engineLines(answers: CreateAnswers): string {
  const lines = [`provider: ${answers.provider}`, `model: ${scalar(answers.model)}`];
  if (answers.baseURL !== undefined) lines.push(`baseURL: ${scalar(answers.baseURL)}`);
  if (answers.provider === 'scripted') lines.push('script: ./script.yaml');
  return lines.map((line) => `  ${line}`).join('\n');
}

/**
 * engine.maxContextTokens and why: the meter's limit, and the size the conversation is compacted
 * to fit. Written when the window is known; for a server the person runs, a line to fill in.
 */
function contextWindowLines(answers: CreateAnswers): string {
  const known = knownContextWindow(answers.provider, answers.model);
  let lines: string[];
  if (answers.provider === 'ollama') {
    lines = [
      "# The model's context window in tokens: Ollama's num_ctx, 4096 unless the model or",
      '# OLLAMA_CONTEXT_LENGTH raises it. Keep the two equal: the conversation is compacted to fit.',
      `maxContextTokens: ${known}`,
    ];
  } else if (known !== undefined) {
    lines = ["# The model's context window in tokens: the conversation is compacted to fit it.", `maxContextTokens: ${known}`];
  } else if (answers.provider === 'scripted') {
    lines = ["# The model's context window in tokens, when you want the context meter and compaction.", '# maxContextTokens: 8192'];
  } else {
    lines = [
      "# The model's context window in tokens, so the conversation is compacted before the server",
      "# refuses it: the server's own setting (llama.cpp's -c, vLLM's --max-model-len).",
      '# maxContextTokens: 8192',
    ];
  }
  return lines.map((line) => `  ${line}`).join('\n');
}

/** What .env.example says: the variable to set, or why none is needed. */
function keyLines(answers: CreateAnswers): string {
  const variable = providerKeyVariable({ provider: answers.provider });
  if (variable) return `${variable}=`;
  switch (answers.provider) {
    case 'ollama':
      return '# Ollama runs on this machine and needs no key.';
    case 'scripted':
      return '# The scripted provider replays script.yaml offline and needs no key.';
    default:
      return [
        '# Most local servers need no key. If yours does, add `apiKeyEnv: MY_SERVER_KEY` under engine',
        '# in agent.yaml and set the variable here:',
        '# MY_SERVER_KEY=',
      ].join('\n');
  }
}

/** `type: <id>`, plus `config:` only when there is something in it. */
export function augmentYaml(type: string, config: Record<string, unknown> = {}): string {
  return Object.keys(config).length === 0 ? `type: ${type}\n` : stringify({ type, config });
}

function readTemplate(templatesDir: string, name: string): string {
  return readFileSync(join(templatesDir, name), 'utf8');
}

/** Every file under `templates/<folder>/`, placed under `<folder>/` in the new agent. */
function copiedFiles(templatesDir: string, folder: string): ScaffoldFile[] {
  const root = join(templatesDir, ...folder.split('/'));
  const entries = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return entries.map((entry) => {
    const path = join(entry.parentPath, entry.name);
    return { path: `${folder}/${relative(root, path).split(sep).join('/')}`, content: readFileSync(path, 'utf8') };
  });
}

function skillFiles(templatesDir: string, skill: string): ScaffoldFile[] {
  const files = copiedFiles(templatesDir, `skills/${skill}`);
  if (!files.some((file) => file.path === `skills/${skill}/SKILL.md`)) throw new Error(`templates/skills/${skill} has no SKILL.md`);
  return files;
}

/**
 * An augment whose settings cannot be empty (a workflow needs its pack) ships a starting folder
 * as `templates/augments/<type>/`; every other augment gets the one-line augment.yaml.
 */
function augmentFiles(templatesDir: string, type: string): ScaffoldFile[] {
  if (existsSync(join(templatesDir, 'augments', type, 'augment.yaml'))) return copiedFiles(templatesDir, `augments/${type}`);
  return [{ path: `augments/${type}/augment.yaml`, content: augmentYaml(type) }];
}

/** The whole new folder, rendered in memory: nothing touches the disk until every template worked. */
export function renderAgentFolder(answers: CreateAnswers, id: string, templatesDir: string = TEMPLATES_DIR): ScaffoldFile[] {
  const agentYaml = fillTemplate(
    readTemplate(templatesDir, 'agent.yaml'),
    {
      id: scalar(id),
      name: scalar(answers.name),
      displayName: scalar(answers.displayName),
      purpose: scalar(answers.purpose),
      creator: scalar(answers.creator),
      engine: engineLines(answers),
      contextWindow: contextWindowLines(answers),
      augments: answers.augments.map((type) => `  - ${type}`).join('\n'),
    },
    'agent.yaml',
  );
  // The written file must load: a template edit that breaks it is caught here, not by the person.
  const check = agentYamlSchema.safeParse(parse(agentYaml));
  if (!check.success) throw new Error(`templates/agent.yaml renders an invalid agent.yaml: ${check.error.issues[0]?.message ?? 'unknown problem'}`);

  const text = { name: answers.name, displayName: answers.displayName, purpose: answers.purpose };
  const files: ScaffoldFile[] = [
    { path: 'agent.yaml', content: agentYaml },
    { path: 'identity.md', content: fillTemplate(readTemplate(templatesDir, 'identity.md'), text, 'identity.md') },
  ];
  for (const type of answers.augments) {
    const factory = findAugmentFactory(type);
    if (!factory) throw new Error(`augment ${type} is not built in`);
    if (factory.skill) files.push(...skillFiles(templatesDir, factory.skill));
    files.push(...augmentFiles(templatesDir, type));
    for (const [path, template] of Object.entries(factory.rootTemplates ?? {})) files.push({ path, content: readTemplate(templatesDir, template) });
  }
  if (answers.provider === 'scripted') files.push({ path: 'script.yaml', content: readTemplate(templatesDir, 'script.yaml') });
  files.push({ path: 'tests/example.scenario.yaml', content: readTemplate(templatesDir, 'tests/example.scenario.yaml') });
  files.push({ path: '.env.example', content: fillTemplate(readTemplate(templatesDir, 'env.example'), { keyLines: keyLines(answers) }, 'env.example') });
  files.push({ path: '.gitignore', content: readTemplate(templatesDir, 'gitignore') });
  return files;
}
