import { useCallback, useEffect, useRef, useState } from 'react';
import { BoardPanel } from './board-panel.js';
import { ContextPanel } from './context-meter.js';
import { GoalPanel } from './goal-panel.js';
import { Composer } from './composer.js';
import { ApprovalCard, isReplyQuestion, QuestionnaireForm } from './interrupt-forms.js';
import { AskPanel, CapabilitiesPanel, WorkflowPanel } from './status-panels.js';
import { ThreadsList } from './threads-list.js';
import { TurnStatus } from './turn-status.js';
import { TokenGate } from './token-gate.js';
import { transcriptMarkdown } from './transcript.js';
import { TranscriptView } from './transcript-view.js';
import { useConsole, type ResumeEntry } from './use-console.js';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function App() {
  const model = useConsole();
  const { view } = model;
  const running = view.runningSince !== undefined;
  // The agent waits on the person when it holds an interrupt open, or when its last turn ended
  // with a question asked as text (a client that takes no interrupts ran it): the next message
  // answers. A questionnaire's narration is not such a question: its form is the interrupt.
  const lastSaid = view.transcript.items.findLast((item) => (item.kind === 'assistant' && !item.narration) || item.kind === 'user');
  const askedInText = lastSaid?.kind === 'assistant' && lastSaid.question;
  const waiting = !running && (view.interrupts.length > 0 || askedInText);
  const replyQuestion = view.interrupts.find(isReplyQuestion);
  const [answers, setAnswers] = useState<Record<string, { entry: ResumeEntry; shown: string }>>({});
  const [copied, setCopied] = useState<string>();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const scroller = useRef<HTMLDivElement>(null);
  const { api } = model;
  const shownThread = view.threadId;
  const loadAttachment = useCallback(
    (id: string) => (shownThread === undefined ? Promise.reject(new Error('no thread')) : api.attachment(shownThread, id)),
    [api, shownThread],
  );

  // New lines come in at the bottom: a new item or question is scrolled to; streamed text is
  // followed unless the person scrolled up to read.
  const itemCount = view.transcript.items.length + view.interrupts.length;
  const followed = useRef(0);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const grew = itemCount !== followed.current;
    followed.current = itemCount;
    if (grew || box.scrollHeight - box.scrollTop - box.clientHeight < 160) box.scrollTop = box.scrollHeight;
  });

  // Esc stops the run wherever the focus is.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && model.view.runningSince !== undefined) {
        event.preventDefault();
        model.stop();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [model]);

  // A resume must answer every open interrupt at once: answers wait here until each has one.
  const answer = (entry: ResumeEntry, shown: string) => {
    const next = { ...answers, [entry.interruptId]: { entry, shown } };
    if (view.interrupts.every((interrupt) => next[interrupt.id] !== undefined)) {
      setAnswers({});
      const given = view.interrupts.map((interrupt) => next[interrupt.id]);
      model.resume(
        given.map((item) => item.entry),
        given.map((item) => item.shown).join('\n'),
      );
    } else setAnswers(next);
  };

  if (model.access === 'needs-token') return <TokenGate error={model.accessError} onToken={model.submitToken} />;

  const agentName = model.admin?.agent.displayName ?? 'auggy';
  return (
    <div className="layout">
      <header className="top">
        <h1>{agentName}</h1>
        {model.admin ? <span className="model">{model.admin.agent.model}</span> : null}
        <span className="indicators">
          {view.indicators.map((indicator) => (
            <span key={indicator} className="badge indicator">
              {indicator}
            </span>
          ))}
        </span>
      </header>
      <aside className="sidebar">
        <ThreadsList threads={model.threads} current={view.threadId} onOpen={model.openThread} />
      </aside>
      <main className="chat" aria-label="Chat">
        <div className="chat-tools">
          <button
            type="button"
            onClick={async () =>
              setCopied((await copyText(transcriptMarkdown(view.transcript.items))) ? 'Transcript copied as markdown.' : 'The browser refused the clipboard.')
            }
            disabled={view.transcript.items.length === 0}
          >
            Copy transcript
          </button>
          <span className="note" role="status">
            {copied ?? ''}
          </span>
        </div>
        <div className="chat-scroll" ref={scroller}>
          {view.transcript.items.length === 0 ? <p className="empty note">Send a message to start a thread.</p> : null}
          <TranscriptView
            items={view.transcript.items}
            formShown={waiting && view.interrupts.some((interrupt) => !isReplyQuestion(interrupt))}
            load={loadAttachment}
          />
          {waiting
            ? view.interrupts
                .filter((interrupt) => !isReplyQuestion(interrupt) && answers[interrupt.id] === undefined)
                .map((interrupt) =>
                  interrupt.reason === 'tool_call' ? (
                    <ApprovalCard key={interrupt.id} interrupt={interrupt} onAnswer={answer} />
                  ) : (
                    <QuestionnaireForm
                      key={interrupt.id}
                      interrupt={interrupt}
                      typed={typed}
                      onAnswer={(entry, shown, values) => {
                        setTyped(values);
                        answer(entry, shown);
                      }}
                    />
                  ),
                )
            : null}
          {model.notice ? (
            <p className="refusal notice" role="alert">
              {model.notice}
            </p>
          ) : null}
        </div>
        <div className="bottom">
          <TurnStatus runningSince={view.runningSince} waiting={waiting} onStop={model.stop} />
          <Composer
            waiting={replyQuestion !== undefined && waiting}
            busy={running}
            onSend={(text) => {
              if (replyQuestion && waiting) answer({ interruptId: replyQuestion.id, status: 'resolved', payload: text }, text);
              else model.send(text);
            }}
          />
        </div>
      </main>
      <aside className="side" aria-label="Beside the chat">
        <BoardPanel board={view.state.board} onWrite={model.writeBoard} />
        <AskPanel ask={view.state.ask} onCommand={model.runCommand} />
        <GoalPanel goal={view.state.goal} />
        <ContextPanel reading={view.context} busy={running} onCommand={model.runCommand} />
        <WorkflowPanel workflow={view.state.workflow} admin={model.admin} />
        <CapabilitiesPanel admin={model.admin} />
      </aside>
    </div>
  );
}
