import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { EXIT, UsageError } from '../../hosts/exit-codes.js';
import { createReadlinePrompter, PromptCanceled, type Prompter } from '../prompts.js';
import { agentNameProblem } from './agent-name.js';
import { checkFlags, completeAnswers, type CreateFlags } from './answers.js';
import { renderAgentFolder, TEMPLATES_DIR } from './render.js';
import { writeScaffold } from './scaffold.js';
import { createdMessage } from './next-steps.js';

export interface CreateIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  /** A prompter when a person can answer (a terminal); undefined means defaults apply. */
  openPrompter?: () => Prompter;
  templatesDir?: string;
}

/** The real terminal: prompts only when both ends are a TTY, so nothing ever waits on a pipe. */
export function processIo(): CreateIo {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    openPrompter: interactive ? () => createReadlinePrompter(process.stdin, process.stdout) : undefined,
  };
}

const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Refuses, before anything is asked or written, a parent or target that cannot take the folder. */
function checkTarget(parent: string, name: string, dirFlag: string | undefined): void {
  if (!existsSync(parent) || !statSync(parent).isDirectory()) {
    throw new UsageError(`${dirFlag ?? parent} is not a folder; create it first or choose another --dir`);
  }
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write in ${parent}; choose a folder you can write to with --dir`);
  }
  const target = join(parent, name);
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new UsageError(`${target} already exists and is not empty; choose another name or remove it first`);
  }
}

/** `auggy create <name>`: checks everything, asks what is missing, then writes the folder in one step. */
export async function createCommand(name: string, flags: CreateFlags, io: CreateIo): Promise<number> {
  const nameProblem = agentNameProblem(name);
  if (nameProblem) throw new UsageError(nameProblem);
  const checked = checkFlags(flags);
  const parent = resolve(io.cwd, flags.dir ?? '.');
  checkTarget(parent, name, flags.dir);

  const prompter = flags.yes ? undefined : io.openPrompter?.();
  const answers = await completeAnswers(name, checked, prompter)
    .then(
      (value) => value,
      (error: unknown) => {
        if (error instanceof PromptCanceled) return undefined;
        throw error;
      },
    )
    .finally(() => prompter?.close());
  if (!answers) {
    io.err(`auggy: ${new PromptCanceled().message}\n`);
    return EXIT.canceled;
  }

  const files = renderAgentFolder(answers, `aug1_${randomUUID()}`, io.templatesDir ?? TEMPLATES_DIR);
  let target: string;
  try {
    target = writeScaffold({ parent, name, files });
  } catch (error) {
    const code = errorCode(error);
    // The permission check above can pass and the write still fail (read-only mounts, ACLs, root on /sys).
    if (code && UNWRITABLE.has(code)) throw new UsageError(`cannot write in ${parent} (${code}); choose a folder you can write to with --dir`);
    if (code === 'ENOTEMPTY' || code === 'EEXIST')
      throw new UsageError(`${join(parent, name)} appeared while creating; nothing was written, choose another name`);
    throw error;
  }
  io.out(createdMessage(answers, target, files, io.cwd));
  return EXIT.ok;
}
