import { answeredOf, questionOf, questionnaireSpecSchema, defaultText } from '../augments/questions/index.js';
import type { KernelEvent } from '../kernel/events.js';
import { newMessageId } from '../kernel/model-step.js';
import type { PresentedQuestion } from '../kernel/person.js';

/** The tool whose calls are questionnaires; its arguments list every field it will ask. */
const ASK_USER = 'ask_user';

interface FieldLine {
  question: string;
  type: string;
  options?: readonly string[];
  default?: string;
}

function fieldLine(field: FieldLine): string {
  const offered = field.options && field.options.length > 0 ? ` (${field.options.join(', ')})` : field.type === 'boolean' ? ' (yes or no)' : '';
  const fallback = field.default !== undefined ? ` [default: ${field.default}]` : '';
  return `? ${field.question}${offered}${fallback}`;
}

/** Every field of an ask_user call, read from its arguments; undefined while they are not valid JSON. */
function fieldsOfCall(args: string): { prompt?: string; fields: FieldLine[] } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(args);
  } catch {
    return undefined;
  }
  const spec = questionnaireSpecSchema.safeParse(raw);
  if (!spec.success) return undefined;
  return {
    prompt: spec.data.prompt,
    fields: spec.data.fields.map((field) => ({
      question: field.question ?? field.name,
      type: field.type,
      options: field.options,
      default: defaultText(field.default),
    })),
  };
}

const NO_ANSWER: Record<'away' | 'declined', string> = {
  away: 'No answer: nobody is here to answer, so the agent goes on without one.',
  declined: 'No answer: the question was declined.',
};

/**
 * Questions as visible text, for hosts where the run is only watched (--print, stream-json,
 * serve): besides its structured `question` event, what was asked reads as an assistant
 * message (the prompt and each field's question), and so does a question nobody answered.
 */
export function createQuestionNarrator(): (event: KernelEvent) => string | undefined {
  const calls = new Map<string, { args: string; done: boolean }>();
  const narrated = new Set<string>();
  const ended = new Set<string>();

  /** The open ask_user call a questionnaire belongs to: the latest that has not returned. */
  const openCall = () => [...calls.values()].reverse().find((call) => !call.done);

  const questionText = (question: PresentedQuestion): string | undefined => {
    if (!narrated.has(question.questionnaireId)) {
      narrated.add(question.questionnaireId);
      const call = openCall();
      const spec = call ? fieldsOfCall(call.args) : undefined;
      if (spec && spec.fields.length === question.total) {
        return [spec.prompt, ...spec.fields.map(fieldLine)].filter((line) => line !== undefined && line !== '').join('\n');
      }
      return [question.intro, fieldLine(question)].filter((line) => line !== undefined && line !== '').join('\n');
    }
    // A field asked again after a refused answer: once more, with why.
    return question.error !== undefined ? `${fieldLine(question)}\n(${question.error})` : undefined;
  };

  return (event) => {
    switch (event.type) {
      case 'TOOL_CALL_START':
        if (event.toolCallName === ASK_USER) calls.set(event.toolCallId, { args: '', done: false });
        return undefined;
      case 'TOOL_CALL_ARGS': {
        const call = calls.get(event.toolCallId);
        if (call) call.args += event.delta;
        return undefined;
      }
      case 'TOOL_CALL_RESULT': {
        const call = calls.get(event.toolCallId);
        if (call) call.done = true;
        return undefined;
      }
      case 'CUSTOM': {
        const question = questionOf(event);
        if (question) return questionText(question);
        const answered = answeredOf(event);
        if (answered && 'reason' in answered && !ended.has(answered.questionnaireId)) {
          ended.add(answered.questionnaireId);
          return NO_ANSWER[answered.reason];
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };
}

/** The narrated text as the three text-message events AG-UI clients draw. */
export function textMessageEvents(text: string): KernelEvent[] {
  const messageId = newMessageId();
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text },
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
}
