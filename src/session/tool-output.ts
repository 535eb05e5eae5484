import type { ToolResultPart } from '@ai-sdk/provider-utils';

/** What a tool answered, as the words a reader (the model, a summary, an evaluator) is given. */
export interface ToolOutputText {
  text: string;
  /** The tool failed or was refused: said beside the text, never guessed from it. */
  error: boolean;
}

/** A value as text: a string as it is, anything else as JSON (or as String() where JSON has no form for it). */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool result's output as text: the one reading every measure and rendering of it shares, so
 * the context meter counts what pruning saves and what a summary or an evaluator is shown.
 */
export function toolOutputText(output: ToolResultPart['output']): ToolOutputText {
  switch (output.type) {
    case 'text':
      return { text: output.value, error: false };
    case 'error-text':
      return { text: output.value, error: true };
    case 'json':
      return { text: jsonText(output.value), error: false };
    case 'error-json':
      return { text: jsonText(output.value), error: true };
    case 'execution-denied':
      return { text: `denied${output.reason ? `: ${output.reason}` : ''}`, error: true };
    case 'content':
      return { text: output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n'), error: false };
  }
}

/** What a pruned tool output says in its place. */
export function prunedOutputNote(chars: number): string {
  return `[This output (${chars} characters) was pruned to save context; call the tool again if it is needed.]`;
}
