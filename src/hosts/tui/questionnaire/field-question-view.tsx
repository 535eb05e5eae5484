import { Box, Text } from 'ink';
import type { PresentedQuestion } from '../../../kernel/person.js';
import { InputLine } from '../input-line.js';
import { markdownRows } from '../markdown/markdown-rows.js';
import { usePalette } from '../palette.js';
import { useScreenWidth } from '../screen-width.js';
import { wrapText } from '../transcript-rows/row-layout.js';
import { PLAIN, rowText } from '../transcript-rows/styled-text.js';
import { glyph } from '../theme.js';
import { questionHints } from './question-hints.js';
import { pickable, type QuestionInput } from './question-keys.js';

export interface FieldQuestionViewProps {
  question: PresentedQuestion;
  input: QuestionInput;
}

/**
 * What the agent wrote is drawn as its replies are, markdown laid out to `width` columns; what
 * auggy or an MCP server wrote (an approval's arguments, a server's form) stays as written, wrapped at words.
 */
function AskedText({ text, width, markdown, bold }: { text: string; width: number; markdown: boolean; bold?: boolean }) {
  const palette = usePalette();
  // Wrapped here rather than by Ink, which starts the row after a full one with the space between.
  const rows = markdown ? markdownRows(text, width, palette) : wrapText(text, PLAIN, width);
  return <Text bold={bold}>{rows.map(rowText).join('\n')}</Text>;
}

/** The intro, shown once above the first question. */
function Intro({ text, markdown }: { text: string; markdown: boolean }) {
  return (
    <Box marginBottom={1}>
      <AskedText text={text} width={useScreenWidth()} markdown={markdown} />
    </Box>
  );
}

/** `question 2 of 3`, or who asks when it is not the agent: a tool waiting for a yes, an MCP server. */
export function headingText(question: PresentedQuestion): string {
  const purpose = question.purpose;
  if (purpose?.kind === 'approval') return `approve a tool call · ${purpose.server} · ${purpose.tool}`;
  const place = `question ${question.index} of ${question.total}`;
  if (purpose?.kind === 'elicitation') return `${place} · asked by the MCP server ${purpose.server}`;
  if (purpose?.kind === 'sampling') return `${purpose.server} asks to use the agent's model`;
  return place;
}

function Heading({ question }: { question: PresentedQuestion }) {
  const colour = usePalette();
  const width = Math.max(1, useScreenWidth() - 2);
  return (
    <Box>
      <Box width={2} flexShrink={0}>
        <Text bold color={colour.question}>
          {glyph.question}
        </Text>
      </Box>
      <Box flexDirection="column" flexGrow={1}>
        <Text dimColor>{headingText(question)}</Text>
        <AskedText text={question.question} width={width} markdown={question.purpose === undefined} bold />
      </Box>
    </Box>
  );
}

/** A choice's options, numbered, the highlighted one marked. */
function Options({ options, highlighted }: { options: string[]; highlighted: number }) {
  const colour = usePalette();
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {options.map((option, index) => {
        const on = index === highlighted;
        return (
          <Text key={option} color={on ? colour.accent : undefined} bold={on}>
            {on ? glyph.prompt : ' '} {index + 1}. {option}
          </Text>
        );
      })}
    </Box>
  );
}

/** yes / no on one line, the highlighted one inverted. */
function YesNo({ highlighted }: { highlighted: number }) {
  return (
    <Box paddingLeft={2}>
      <Text>
        <Text inverse={highlighted === 0}>yes</Text>
        {' / '}
        <Text inverse={highlighted === 1}>no</Text>
      </Text>
    </Box>
  );
}

/**
 * One question of a questionnaire in the input's place: the intro above the first question,
 * `question 2 of 3`, the question, why the last answer was refused, the offered answers, the
 * answer line and what it takes.
 */
export function FieldQuestionView({ question, input }: FieldQuestionViewProps) {
  const colour = usePalette();
  const picks = pickable(question);
  return (
    <Box flexDirection="column">
      {question.intro !== undefined && <Intro text={question.intro} markdown={question.purpose === undefined} />}
      <Heading question={question} />
      {question.error !== undefined && (
        <Box paddingLeft={2}>
          <Text color={colour.error}>
            {glyph.error} {question.error}
          </Text>
        </Box>
      )}
      {question.type === 'choice' && picks && <Options options={picks} highlighted={input.highlighted} />}
      {question.type === 'boolean' && <YesNo highlighted={input.highlighted} />}
      <InputLine text={input.editor.text} cursor={input.editor.cursor} placeholder="your answer" />
      <Box paddingLeft={2}>
        <Text dimColor>{questionHints(question).join(' · ')}</Text>
      </Box>
    </Box>
  );
}
