import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import type { Palette } from '../palette.js';

/** Inline tokens the way a terminal can show them: bold, italic, code, links with their address. */
export function inlineNodes(tokens: readonly Token[] | undefined, palette: Palette, key = 'n'): ReactNode[] {
  if (!tokens) return [];
  return tokens.map((token, index) => inlineNode(token, palette, `${key}.${index}`));
}

function inlineNode(token: Token, palette: Palette, key: string): ReactNode {
  switch (token.type) {
    case 'strong':
      return (
        <Text key={key} bold>
          {inlineNodes((token as Tokens.Strong).tokens, palette, key)}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {inlineNodes((token as Tokens.Em).tokens, palette, key)}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {inlineNodes((token as Tokens.Del).tokens, palette, key)}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color={palette.inlineCode} bold={palette.inlineCode === undefined}>
          {(token as Tokens.Codespan).text}
        </Text>
      );
    case 'link': {
      const link = token as Tokens.Link;
      const label = link.text.trim();
      // An address shown as its own label is said once.
      const same = label === link.href || `mailto:${label}` === link.href;
      return (
        <Text key={key}>
          <Text color={palette.link} underline>
            {inlineNodes(link.tokens, palette, key)}
          </Text>
          {same ? '' : <Text dimColor> ({link.href})</Text>}
        </Text>
      );
    }
    case 'image': {
      const image = token as Tokens.Image;
      return (
        <Text key={key} dimColor>
          [image: {image.text || image.href}]
        </Text>
      );
    }
    case 'br':
      return '\n';
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens && text.tokens.length > 0 ? <Text key={key}>{inlineNodes(text.tokens, palette, key)}</Text> : text.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '☑ ' : '☐ ';
    default:
      return token.raw;
  }
}

