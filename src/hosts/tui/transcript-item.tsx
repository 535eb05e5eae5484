import type { DisplayItem } from './display-items.js';
import { Header } from './header.js';
import { AssistantMessage, SystemLine, TurnEndLine, UserMessage } from './message-lines.js';
import { QuestionView } from './question-view.js';
import { ToolCallLine } from './tool-call-line.js';

/** Draws one transcript item, printed or live alike. */
export function TranscriptItem({ item }: { item: DisplayItem }) {
  switch (item.kind) {
    case 'header':
      return <Header {...item} />;
    case 'user':
      return <UserMessage text={item.text} />;
    case 'assistant':
      return <AssistantMessage text={item.text} continued={item.continued} />;
    case 'tool':
      return <ToolCallLine name={item.name} args={item.args} result={item.result} state={item.state} />;
    case 'question':
      return <QuestionView text={item.text} />;
    case 'turn-end':
      return <TurnEndLine status={item.status} message={item.message} />;
    case 'system':
      return <SystemLine text={item.text} tone={item.tone} />;
  }
}
