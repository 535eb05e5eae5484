import { relative } from 'node:path';
import { providerKeyVariable } from '../../agent/provider-keys.js';
import type { CreateAnswers } from './answers.js';
import type { ScaffoldFile } from './render.js';

function shellWord(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What was written, then the commands that take the person from here to a first run. */
export function createdMessage(answers: CreateAnswers, target: string, files: readonly ScaffoldFile[], cwd: string): string {
  const where = relative(cwd, target) || '.';
  const topLevel = [
    ...new Set(
      files.map((file) =>
        file.path
          .split('/')
          .slice(0, 2)
          .join('/')
          .replace(/\/SKILL\.md$|\/augment\.yaml$/, ''),
      ),
    ),
  ];
  const steps = [`cd ${shellWord(where)}`];
  const variable = providerKeyVariable({ provider: answers.provider });
  if (variable) steps.push(`cp .env.example .env      # then set ${variable} in .env`);
  if (answers.provider === 'ollama') steps.push(`ollama pull ${shellWord(answers.model)}      # if the model is not on this machine yet`);
  if (answers.provider === 'openai-compatible') steps.push(`# start your server at ${answers.baseURL ?? 'its URL'} serving ${answers.model}`);
  if (answers.provider === 'scripted') steps.push('# edit script.yaml to change the replies');
  steps.push('auggy run');
  steps.push('auggy test      # runs tests/example.scenario.yaml');
  return [
    `Created ${answers.displayName} in ${where}/ (${answers.provider}, ${answers.model}):`,
    `  ${topLevel.join(', ')}`,
    '',
    'Next steps:',
    ...steps.map((step) => `  ${step}`),
    '',
  ].join('\n');
}
