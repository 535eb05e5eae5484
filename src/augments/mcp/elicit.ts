import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { runDeferrableQuestionnaire, runQuestionnaire } from '../questions/index.js';
import { elicitationForm } from './elicitation-form.js';
import type { CallSeat } from './server-pool.js';

/** Both the turn and the server can call the question off. */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  return AbortSignal.any([a, b]);
}

/**
 * A server's `elicitation/create`, answered on the person's road. Form mode asks one question
 * per field; URL mode shows the link and asks to go on. Nobody there (print, serve, which answers a form field by field "away", /away, or
 * no call waiting) answers at once: `cancel` for a form, `decline` for a link. Where the person
 * answers in a later run (serve's interrupts), a form is held open: the server hears `cancel`,
 * the call's result is dropped, and the run that brings the answer calls the server's tool again,
 * whose same form then gets it.
 */
export async function answerElicitation(server: string, params: ElicitRequestParams, seat: CallSeat | undefined, signal: AbortSignal): Promise<ElicitResult> {
  // The person may take their time: the call's timeout waits for them.
  const resume = seat?.person.present() ? seat.clock.hold() : undefined;
  try {
    return await ask(server, params, seat, signal);
  } finally {
    resume?.();
  }
}

async function ask(server: string, params: ElicitRequestParams, seat: CallSeat | undefined, signal: AbortSignal): Promise<ElicitResult> {
  if (params.mode === 'url') {
    if (!seat?.person.present()) return { action: 'decline' };
    const result = await runQuestionnaire(
      {
        prompt: `${server} asks you to open a link:\n${params.message}\n${params.url}`,
        fields: [{ name: 'opened', question: 'Open it in your browser, then answer yes to go on (no declines)', type: 'boolean' }],
      },
      seat.person,
      { signal: either(signal, seat.signal), emit: seat.emit, id: `elicit_${params.elicitationId}`, purpose: { kind: 'elicitation', server, url: params.url } },
    );
    return result.status === 'answered' && result.answers.opened === true ? { action: 'accept' } : { action: 'decline' };
  }
  if (!seat) return { action: 'cancel' };
  const form = elicitationForm(params, server);
  // Named by the call and its place in it, so the same form asked when the call runs again finds its answer.
  const id = `elicit_${seat.toolCallId}_${seat.forms.asked++}`;
  const result = await runDeferrableQuestionnaire(form.spec, seat.person, {
    signal: either(signal, seat.signal),
    emit: seat.emit,
    schema: form.schema,
    purpose: { kind: 'elicitation', server },
    id,
    toolCallId: seat.toolCallId,
  });
  if (result.status === 'pending') {
    // The server hears "cancel" now; the call is run again once the person answered.
    seat.forms.held = true;
    return { action: 'cancel' };
  }
  if (result.status === 'answered') return { action: 'accept', content: result.answers };
  return { action: result.reason === 'away' ? 'cancel' : 'decline' };
}
