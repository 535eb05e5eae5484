/** Characters XML 1.0 cannot hold at all (most control characters): dropped, or the file would not parse. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text or an attribute value made safe for XML. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** `<name a="1" b="2">` with attributes escaped; undefined values are left out. */
export function openTag(name: string, attributes: Record<string, string | number | undefined>, selfClosing = false): string {
  const written = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${xmlEscape(String(value))}"`)
    .join('');
  return `<${name}${written}${selfClosing ? '/>' : '>'}`;
}
