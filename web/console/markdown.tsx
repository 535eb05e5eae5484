import { marked, type Token, type Tokens } from 'marked';
import type { ReactNode } from 'react';
import { HighlightedCode } from './highlight.js';

/**
 * Markdown drawn as React elements from marked's tokens. No token is ever inserted as HTML: raw
 * HTML in a reply (a `<script>`, an `<img onerror>`) is shown as the text it is.
 */
export function Markdown({ text }: { text: string }) {
  // Line breaks as written: questions and lists of fields come one per line.
  return <div className="markdown">{blocks(marked.lexer(text, { breaks: true, gfm: true }), 'b')}</div>;
}

/** Only links a person can follow safely: web and mail addresses, never `javascript:`. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href, window.location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function blocks(tokens: readonly Token[], key: string): ReactNode[] {
  return tokens.map((token, index) => block(token, `${key}-${index}`));
}

function block(token: Token, key: string): ReactNode {
  switch (token.type) {
    case 'space':
      return null;
    case 'paragraph':
      return <p key={key}>{inline((token as Tokens.Paragraph).tokens, key)}</p>;
    case 'heading': {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(6, heading.depth + 2)}` as 'h3';
      return <Tag key={key}>{inline(heading.tokens, key)}</Tag>;
    }
    case 'code': {
      const code = token as Tokens.Code;
      return <HighlightedCode key={key} code={code.text} lang={code.lang} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((token as Tokens.Blockquote).tokens, key)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, index) => <li key={`${key}-${index}`}>{blocks(item.tokens, `${key}-${index}`)}</li>);
      return list.ordered ? (
        <ol key={key} start={typeof list.start === 'number' ? list.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      return (
        <div key={key} className="table-scroll">
          <table>
            <thead>
              <tr>
                {table.header.map((cell, index) => (
                  <th key={`${key}-h${index}`}>{inline(cell.tokens, `${key}-h${index}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, rowIndex) => (
                <tr key={`${key}-r${rowIndex}`}>
                  {row.map((cell, index) => (
                    <td key={`${key}-r${rowIndex}-${index}`}>{inline(cell.tokens, `${key}-r${rowIndex}-${index}`)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'html':
      return (
        <p key={key} className="raw-html">
          {(token as Tokens.HTML).text}
        </p>
      );
    case 'text': {
      const textToken = token as Tokens.Text;
      return <p key={key}>{textToken.tokens ? inline(textToken.tokens, key) : textToken.text}</p>;
    }
    default:
      return 'raw' in token ? <p key={key}>{String(token.raw)}</p> : null;
  }
}

function inline(tokens: readonly Token[] | undefined, key: string): ReactNode[] {
  return (tokens ?? []).map((token, index) => inlineToken(token, `${key}-${index}`));
}

function inlineToken(token: Token, key: string): ReactNode {
  switch (token.type) {
    case 'text': {
      const textToken = token as Tokens.Text;
      return textToken.tokens ? <span key={key}>{inline(textToken.tokens, key)}</span> : textToken.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'strong':
      return <strong key={key}>{inline((token as Tokens.Strong).tokens, key)}</strong>;
    case 'em':
      return <em key={key}>{inline((token as Tokens.Em).tokens, key)}</em>;
    case 'del':
      return <del key={key}>{inline((token as Tokens.Del).tokens, key)}</del>;
    case 'codespan':
      return <code key={key}>{(token as Tokens.Codespan).text}</code>;
    case 'br':
      return <br key={key} />;
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      if (href === undefined) return <span key={key}>{inline(link.tokens, key)}</span>;
      return (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer">
          {inline(link.tokens, key)}
        </a>
      );
    }
    case 'image':
      // Images are not fetched (the page's policy allows none from elsewhere): their text stands in.
      return `[image: ${(token as Tokens.Image).text}]`;
    case 'html':
      return (token as Tokens.Tag).text;
    default:
      return 'raw' in token ? String(token.raw) : null;
  }
}
