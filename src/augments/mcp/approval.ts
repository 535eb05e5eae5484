import type { EmitEvent } from '../../kernel/events.js';
import type { PersonChannel } from '../../kernel/person.js';
import { runDeferrableQuestionnaire } from '../questions/index.js';
import type { ServerPolicy } from './config-schema.js';
import type { RemoteTool } from './server-connection.js';
import { listNames, matchesPattern } from './tool-names.js';
import { approvalEvent, type ApprovalSource } from './approval-event.js';

export { APPROVAL_EVENT, type ApprovalSource } from './approval-event.js';

const YES = 'yes';
const NO = 'no';
const ALWAYS = 'always for this session';

export interface ApprovalDecision {
  approved: boolean;
  by: ApprovalSource;
  /** The person chose "always for this session". */
  always?: boolean;
}

export interface ApprovalRequest {
  server: string;
  tool: RemoteTool;
  toolName: string;
  toolCallId: string;
  arguments: Record<string, unknown>;
  person: PersonChannel;
  signal: AbortSignal;
  emit: EmitEvent;
  allowedTools: readonly string[];
  /** Tools the person already said "always" to in this session. */
  alwaysAllowed: ReadonlySet<string>;
}

/** A tool runs only after a yes when `.mcp.json` lists it under confirmTools or its server marks it destructive. */
export function needsApproval(policy: ServerPolicy, tool: RemoteTool, exposed: string): boolean {
  return listNames(policy.confirmTools, tool.name, exposed) || tool.annotations?.destructiveHint === true;
}

function argumentLines(args: Record<string, unknown>): string {
  const json = JSON.stringify(args, null, 2);
  return json.length > 1500 ? `${json.slice(0, 1500)}\n…` : json;
}

/** The person answers in a later run (serve's interrupts): nothing runs until then. */
export type PendingApproval = { pending: true };

async function askPerson(request: ApprovalRequest): Promise<ApprovalDecision | PendingApproval> {
  const why = request.tool.annotations?.destructiveHint === true ? 'its server marks it as possibly destructive' : 'confirmTools in .mcp.json lists it';
  const result = await runDeferrableQuestionnaire(
    {
      prompt: `${request.server} wants to run ${request.tool.name} (${why}) with:\n${argumentLines(request.arguments)}`,
      fields: [{ name: 'approve', question: `Run ${request.toolName}?`, type: 'choice', options: [YES, NO, ALWAYS] }],
    },
    request.person,
    {
      signal: request.signal,
      emit: request.emit,
      id: `approve_${request.toolCallId}`,
      toolCallId: request.toolCallId,
      purpose: { kind: 'approval', server: request.server, tool: request.tool.name, toolName: request.toolName, arguments: request.arguments },
    },
  );
  if (result.status === 'pending') return { pending: true };
  if (result.status === 'no-answer') return { approved: false, by: result.reason === 'away' ? 'nobody' : 'person' };
  const answer = result.answers.approve;
  if (answer === ALWAYS) return { approved: true, by: 'person', always: true };
  return { approved: answer === YES, by: 'person' };
}

/**
 * Settles whether a call that needs a yes may run: an earlier "always", an `--allow-tool`
 * pattern, else the person; where nobody is there it is refused at once; where the person
 * answers in a later run it is pending. The decision is an event, so the session keeps every
 * approval and refusal.
 */
export async function decideApproval(request: ApprovalRequest): Promise<ApprovalDecision | PendingApproval> {
  let decision: ApprovalDecision;
  if (request.alwaysAllowed.has(request.toolName)) decision = { approved: true, by: 'session' };
  else if (request.allowedTools.some((pattern) => matchesPattern(pattern, request.toolName))) decision = { approved: true, by: 'allow-tool' };
  else if (!request.person.present()) decision = { approved: false, by: 'nobody' };
  else {
    const asked = await askPerson(request);
    // Undecided yet: the decision event comes with the run that brings the answer.
    if ('pending' in asked) return asked;
    decision = asked;
  }
  request.emit(
    approvalEvent({
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      server: request.server,
      tool: request.tool.name,
      arguments: request.arguments,
      decision: decision.approved ? 'approved' : 'refused',
      by: decision.by,
      ...(decision.always ? { always: true } : {}),
    }),
  );
  return decision;
}

/** What the model reads when the call was not allowed to run. */
export function refusalText(toolName: string, decision: ApprovalDecision): string {
  if (decision.by === 'nobody') {
    return `${toolName} needs the person's approval, and nobody is at the prompt, so it did not run. Say what you would have done; the person can allow it with --allow-tool ${toolName}.`;
  }
  return `The person refused to let ${toolName} run, so it did not run. Do not call it again for this; ask what they want instead.`;
}
