import { useState } from 'react';

/** The message box: Enter sends, Shift+Enter is a new line; while the agent asks, it says it waits for the answer. */
export function Composer({ waiting, busy, onSend }: { waiting: boolean; busy: boolean; onSend(text: string): void }) {
  const [text, setText] = useState('');
  const label = waiting ? 'Your answer (the agent is waiting for it)' : 'Message the agent';
  const send = () => {
    if (busy || text.trim() === '') return;
    onSend(text.trim());
    setText('');
  };
  return (
    <form
      className={`composer${waiting ? ' waiting' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label htmlFor="composer-input" className="visually-hidden">
        {label}
      </label>
      <textarea
        id="composer-input"
        rows={2}
        placeholder={waiting ? 'The agent is waiting for your answer…' : 'Message the agent…'}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" className="primary" disabled={busy}>
        {waiting ? 'Answer' : 'Send'}
      </button>
    </form>
  );
}
