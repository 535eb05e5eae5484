import type { AgentContext, PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { PersonChannel, PersonReply, QuestionnaireAsk, QuestionnaireReply } from '../../kernel/person.js';
import { answeredTexts, elicitationMessage, elicitationSchema } from './elicitation-form.js';

export interface AcpPersonOptions {
  client: AgentContext;
  sessionId: string;
  /** The client advertised `elicitation.form`: questionnaires are asked as its forms. */
  forms: boolean;
  /** How an approval's call is titled, as its tool_call was. */
  describeCall(toolName: string): { title: string; name: string };
  /** Tools the person said "reject always" to in this session: refused without asking. */
  rejectedAlways: Set<string>;
}

const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always (this session)', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always (this session)', kind: 'reject_always' },
];

/**
 * The person in an editor, on its own road: an approval is `session/request_permission`, any
 * other questionnaire (ask_user, a workflow ask state, an MCP form) one `elicitation/create`
 * form, answered within the turn. A client without forms gets no-answer at once, as nobody.
 * "Allow always" is the mcp augment's own "always for this session"; "reject always" is kept
 * here, for the session, since the augment has no standing refusal.
 */
export class AcpPerson implements PersonChannel {
  constructor(private readonly options: AcpPersonOptions) {}

  present(): boolean {
    return true;
  }

  /** Questions come whole (askQuestionnaire); a field-by-field one has nobody to draw it. */
  async ask(): Promise<PersonReply> {
    return { kind: 'away' };
  }

  async askQuestionnaire(ask: QuestionnaireAsk, signal: AbortSignal): Promise<QuestionnaireReply> {
    if (ask.purpose?.kind === 'approval') return this.askPermission(ask, ask.purpose.toolName, signal);
    if (!this.options.forms) return { kind: 'away' };
    try {
      const response = await this.options.client.request(
        'elicitation/create',
        {
          mode: 'form',
          sessionId: this.options.sessionId,
          ...(ask.toolCallId === undefined ? {} : { toolCallId: ask.toolCallId }),
          message: elicitationMessage(ask),
          requestedSchema: elicitationSchema(ask),
        },
        { cancellationSignal: signal },
      );
      const texts = answeredTexts(ask, response);
      return texts === undefined ? { kind: 'declined' } : { kind: 'answers', texts, reasks: ask.reasks };
    } catch {
      // A client that fails the request (or the turn canceled under it) gave no answer.
      return { kind: 'declined' };
    }
  }

  private async askPermission(ask: QuestionnaireAsk, toolName: string, signal: AbortSignal): Promise<QuestionnaireReply> {
    const field = ask.questions[0]?.field ?? 'approve';
    const [yes = 'yes', no = 'no', always = 'always for this session'] = ask.questions[0]?.options ?? [];
    const answer = (text: string): QuestionnaireReply => ({ kind: 'answers', texts: { [field]: text }, reasks: ask.reasks });
    if (this.options.rejectedAlways.has(toolName)) return answer(no);
    let outcome: RequestPermissionOutcome;
    try {
      const response = await this.options.client.request(
        'session/request_permission',
        {
          sessionId: this.options.sessionId,
          toolCall: { toolCallId: ask.toolCallId ?? ask.questionnaireId, ...this.options.describeCall(toolName), status: 'pending' },
          options: PERMISSION_OPTIONS,
          _meta: { auggy: { message: ask.prompt } },
        },
        { cancellationSignal: signal },
      );
      outcome = response.outcome;
    } catch {
      outcome = { outcome: 'cancelled' };
    }
    // A cancelled prompt is a refusal: nothing runs without a yes.
    if (outcome.outcome !== 'selected') return answer(no);
    switch (outcome.optionId) {
      case 'allow_once':
        return answer(yes);
      case 'allow_always':
        return answer(always);
      case 'reject_always':
        this.options.rejectedAlways.add(toolName);
        return answer(no);
      default:
        return answer(no);
    }
  }
}
