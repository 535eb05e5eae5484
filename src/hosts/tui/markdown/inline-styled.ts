import type { Token, Tokens } from 'marked';
import type { Palette } from '../palette.js';
import { PLAIN, type Look, type Styled } from '../transcript-rows/styled-text.js';

/** Inline tokens the way a terminal can show them: bold, italic, code, links with their address. */
export function inlineStyled(tokens: readonly Token[] | undefined, palette: Palette): Styled[] {
  return (tokens ?? []).map((token) => inlineNode(token, palette));
}

function run(look: Look, children: readonly Styled[]): Styled {
  return { look, children };
}

function inlineNode(token: Token, palette: Palette): Styled {
  switch (token.type) {
    case 'strong':
      return run({ bold: true }, inlineStyled((token as Tokens.Strong).tokens, palette));
    case 'em':
      return run({ italic: true }, inlineStyled((token as Tokens.Em).tokens, palette));
    case 'del':
      return run({ strikethrough: true }, inlineStyled((token as Tokens.Del).tokens, palette));
    case 'codespan':
      // Without colours, code stands out in bold.
      return run({ color: palette.inlineCode, bold: palette.inlineCode === undefined }, [(token as Tokens.Codespan).text]);
    case 'link': {
      const link = token as Tokens.Link;
      const label = link.text.trim();
      // An address shown as its own label is said once.
      const same = label === link.href || `mailto:${label}` === link.href;
      const shown = run({ color: palette.link, underline: true }, inlineStyled(link.tokens, palette));
      return same ? shown : run(PLAIN, [shown, run({ dim: true }, [` (${link.href})`])]);
    }
    case 'image': {
      const image = token as Tokens.Image;
      return run({ dim: true }, [`[image: ${image.text || image.href}]`]);
    }
    case 'br':
      return '\n';
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens && text.tokens.length > 0 ? run(PLAIN, inlineStyled(text.tokens, palette)) : text.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '☑ ' : '☐ ';
    default:
      return token.raw;
  }
}
