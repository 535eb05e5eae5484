import { Box, Text } from 'ink';
import { useMemo, type ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { usePalette, type Palette } from '../palette.js';
import { HighlightedCode } from './highlight-code.js';
import stringWidth from 'string-width';
import { inlineNodes } from './markdown-inline.js';
import { inlinePlainText } from '../print/markdown-rows.js';
import { lexMarkdown } from './markdown-blocks.js';
import { wrapPlainText } from '../fit-text.js';
import { useScreenWidth } from '../screen-width.js';

interface BlockContext {
  palette: Palette;
  /** Columns the blocks may take. */
  width: number;
}

function CodeBlock({ token }: { token: Tokens.Code }) {
  const language = token.lang?.trim().split(/\s+/)[0];
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {language ? <Text dimColor>{language}</Text> : null}
      <HighlightedCode code={token.text} language={language} />
    </Box>
  );
}

function Heading({ token, palette }: { token: Tokens.Heading; palette: Palette }) {
  const nodes = inlineNodes(token.tokens, palette);
  return (
    <Text bold color={token.depth <= 2 ? palette.heading : undefined} underline={token.depth === 1}>
      {nodes}
    </Text>
  );
}

function ListBlock({ token, context }: { token: Tokens.List; context: BlockContext }) {
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, index) => (token.ordered ? `${start + index}.` : '•'));
  const markerWidth = Math.max(...markers.map((marker) => marker.length)) + 1;
  return (
    <Box flexDirection="column">
      {token.items.map((item, index) => (
        <Box key={index} marginTop={token.loose && index > 0 ? 1 : 0}>
          <Box width={markerWidth} flexShrink={0}>
            <Text dimColor={!token.ordered}>{markers[index]}</Text>
          </Box>
          <Box flexDirection="column" flexGrow={1}>
            {blocks(item.tokens, { ...context, width: context.width - markerWidth }, false)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** How many columns a cell's text takes on screen: as shown (no markup), wide characters and emoji counted as the terminal draws them. */
function cellWidth(cell: Tokens.TableCell): number {
  return stringWidth(inlinePlainText(cell.tokens).replace(/\s+/g, ' ').trim());
}

/** Columns as wide as their widest cell, shrunk in proportion when the table is wider than the screen; cells wrap. */
function columnWidths(token: Tokens.Table, width: number): number[] {
  const natural = token.header.map((cell, column) => Math.max(cellWidth(cell), ...token.rows.map((row) => (row[column] ? cellWidth(row[column]) : 0)), 1));
  const gaps = (natural.length - 1) * 3;
  const room = Math.max(natural.length * 4, width - gaps);
  const total = natural.reduce((sum, value) => sum + value, 0);
  if (total <= room) return natural;
  return natural.map((value) => Math.max(4, Math.floor((value / total) * room)));
}

function TableBlock({ token, context }: { token: Tokens.Table; context: BlockContext }) {
  const widths = columnWidths(token, context.width);
  const row = (cells: Tokens.TableCell[], header: boolean, key: string) => (
    <Box key={key}>
      {cells.map((cell, column) => (
        <Box key={column} width={widths[column] + (column < cells.length - 1 ? 3 : 0)} flexShrink={0}>
          <Box width={widths[column]} flexShrink={0} justifyContent={token.align[column] === 'right' ? 'flex-end' : token.align[column] === 'center' ? 'center' : 'flex-start'}>
            <Text bold={header}>{inlineNodes(cell.tokens, context.palette)}</Text>
          </Box>
          {column < cells.length - 1 ? <Text dimColor> │ </Text> : null}
        </Box>
      ))}
    </Box>
  );
  return (
    <Box flexDirection="column">
      {row(token.header, true, 'h')}
      <Text dimColor>{widths.map((width) => '─'.repeat(width)).join('─┼─')}</Text>
      {token.rows.map((cells, index) => row(cells, false, `r${index}`))}
    </Box>
  );
}

function block(token: Token, context: BlockContext, key: string): ReactNode {
  const { palette } = context;
  switch (token.type) {
    case 'heading':
      return <Heading key={key} token={token as Tokens.Heading} palette={palette} />;
    case 'paragraph': {
      const nodes = inlineNodes((token as Tokens.Paragraph).tokens, palette);
      // Plain text (no emphasis, code or link) is wrapped before Ink sees it: fit-text.ts says why.
      const plain = nodes.every((node) => typeof node === 'string');
      return <Text key={key}>{plain ? wrapPlainText(nodes.join(''), context.width) : nodes}</Text>;
    }
    case 'text': {
      const text = token as Tokens.Text;
      return <Text key={key}>{text.tokens ? inlineNodes(text.tokens, palette) : text.text}</Text>;
    }
    case 'code':
      return <CodeBlock key={key} token={token as Tokens.Code} />;
    case 'blockquote':
      return (
        <Box key={key} borderStyle="single" borderTop={false} borderRight={false} borderBottom={false} borderDimColor paddingLeft={1} flexDirection="column">
          {blocks((token as Tokens.Blockquote).tokens, { ...context, width: context.width - 2 }, true)}
        </Box>
      );
    case 'list':
      return <ListBlock key={key} token={token as Tokens.List} context={context} />;
    case 'table':
      return <TableBlock key={key} token={token as Tokens.Table} context={context} />;
    case 'hr':
      return (
        <Text key={key} dimColor>
          {'─'.repeat(Math.max(3, Math.min(context.width, 80)))}
        </Text>
      );
    case 'checkbox':
      return null;
    case 'space':
    case 'def':
      return null;
    default:
      return <Text key={key}>{token.raw.replace(/\n+$/, '')}</Text>;
  }
}

/** Blocks one under the other; `spaced` puts a blank row between them, as paragraphs read. */
function blocks(tokens: readonly Token[], context: BlockContext, spaced: boolean): ReactNode[] {
  const shown = tokens.filter((token) => token.type !== 'space' && token.type !== 'def');
  // A task item's checkbox leads its text.
  const checkbox = tokens.find((token) => token.type === 'checkbox') as Tokens.Checkbox | undefined;
  return shown
    .filter((token) => token.type !== 'checkbox')
    .map((token, index) => {
      const node = block(token, context, `b${index}`);
      const lead = index === 0 && checkbox ? <Text key="box">{checkbox.checked ? '☑ ' : '☐ '}</Text> : null;
      return (
        <Box key={`b${index}`} marginTop={spaced && index > 0 ? 1 : 0}>
          {lead}
          <Box flexDirection="column" flexGrow={1}>
            {node}
          </Box>
        </Box>
      );
    });
}

/**
 * A reply's markdown drawn for the terminal: headings without `#`, emphasis without `**`,
 * highlighted code blocks, lists, tables and links, wrapped to `width`. Text still streaming
 * reads the same: an unclosed fence is a code block until it closes.
 */
export function Markdown({ text, width }: { text: string; width?: number }) {
  const palette = usePalette();
  const screen = useScreenWidth();
  const columns = width ?? Math.max(20, screen - 2);
  const tokens = useMemo(() => lexMarkdown(text), [text]);
  return (
    <Box flexDirection="column" width={columns}>
      {blocks(tokens, { palette, width: columns }, true)}
    </Box>
  );
}
