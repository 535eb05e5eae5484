import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';

/** Asks the person one line at a time. A seam so tests answer without a terminal. */
export interface Prompter {
  /** Shows `question` and resolves to the answer typed, without the newline. */
  ask(question: string): Promise<string>;
  /** Shows information that needs no answer (a choice list). */
  say(text: string): void;
  close(): void;
}

/** The person pressed Ctrl+C or closed the input while a question was open. */
export class PromptCanceled extends Error {
  constructor() {
    super('canceled; nothing was written');
  }
}

/** A prompter on a terminal (or any pair of streams, in tests). */
export function createReadlinePrompter(input: Readable, output: Writable): Prompter {
  const rl = createInterface({ input, output, terminal: Boolean((input as Readable & { isTTY?: boolean }).isTTY) });
  const controller = new AbortController();
  // Without these the question would hang after Ctrl+C or Ctrl+D instead of ending.
  rl.on('SIGINT', () => controller.abort());
  rl.on('close', () => controller.abort());
  return {
    async ask(question) {
      if (controller.signal.aborted) throw new PromptCanceled();
      try {
        return await rl.question(question, { signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) throw new PromptCanceled();
        throw error;
      }
    },
    say(text) {
      output.write(`${text}\n`);
    },
    close() {
      rl.close();
    },
  };
}

/** Asks until the answer is accepted; an empty answer takes the default. */
export async function askText(
  prompter: Prompter,
  label: string,
  fallback: string,
  check: (answer: string) => string | undefined = () => undefined,
): Promise<string> {
  for (;;) {
    const answer = (await prompter.ask(`${label} [${fallback}]: `)).trim() || fallback;
    const problem = check(answer);
    if (problem === undefined) return answer;
    prompter.say(`  ${problem}`);
  }
}

/** A numbered list; the answer is a number or a choice's name, empty for the default. */
export async function askChoice<T extends string>(
  prompter: Prompter,
  label: string,
  choices: readonly { value: T; summary: string }[],
  fallback: T,
): Promise<T> {
  prompter.say(`${label}:`);
  const width = Math.max(...choices.map((choice) => choice.value.length));
  choices.forEach((choice, index) => {
    const mark = choice.value === fallback ? ' (default)' : '';
    prompter.say(`  ${index + 1}) ${choice.value.padEnd(width)}  ${choice.summary}${mark}`);
  });
  const defaultNumber = choices.findIndex((choice) => choice.value === fallback) + 1;
  for (;;) {
    const answer = (await prompter.ask(`Choose 1-${choices.length} [${defaultNumber}]: `)).trim();
    if (answer === '') return fallback;
    const byNumber = /^\d+$/.test(answer) ? choices[Number(answer) - 1] : undefined;
    const byName = choices.find((choice) => choice.value === answer.toLowerCase());
    const chosen = byNumber ?? byName;
    if (chosen) return chosen.value;
    prompter.say(`  "${answer}" is not a choice; type a number from 1 to ${choices.length}`);
  }
}
