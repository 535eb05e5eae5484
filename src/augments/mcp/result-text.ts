/** The parts of an MCP tool result auggy reads; the SDK's schema has many more optional fields. */
export interface ToolResultParts {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

/** Past this, a result is cut: one chatty tool must not fill the model's context. */
export const MAX_RESULT_CHARS = 100_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sizeOf(base64: unknown): string {
  if (typeof base64 !== 'string') return 'unknown size';
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} kB`;
}

/** A resource link as the model reads it: where it is and what it is. */
function linkText(item: Record<string, unknown>): string {
  const parts = [`Resource link: ${String(item.name ?? item.uri)} <${String(item.uri)}>`];
  if (typeof item.mimeType === 'string') parts.push(`(${item.mimeType})`);
  if (typeof item.description === 'string') parts.push(`— ${item.description}`);
  return parts.join(' ');
}

function itemText(item: unknown): string {
  if (!isRecord(item)) return JSON.stringify(item);
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      // The kernel hands tools' results to the model as text, so media is described, never dropped silently.
      return `[${item.type}: ${String(item.mimeType ?? 'unknown type')}, ${sizeOf(item.data)}; the ${item.type} itself is not shown to this model]`;
    case 'resource_link':
      return linkText(item);
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      if (typeof resource.text === 'string') return `Resource ${String(resource.uri)}:\n${resource.text}`;
      return `[resource ${String(resource.uri)}: ${String(resource.mimeType ?? 'binary')}, ${sizeOf(resource.blob)}; its bytes are not shown to this model]`;
    }
    default:
      return JSON.stringify(item);
  }
}

/**
 * An MCP result as the text the model reads: each content item in order, then the structured
 * content as JSON unless a text item already says exactly that.
 */
export function resultText(result: ToolResultParts): string {
  const parts = (result.content ?? []).map(itemText).filter((text) => text !== '');
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    const sameJson = parts.some((part) => {
      try {
        return JSON.stringify(JSON.parse(part)) === json;
      } catch {
        return false;
      }
    });
    // Servers often send the same answer twice, as text and as {"content": <that text>}.
    const values = isRecord(result.structuredContent) ? Object.values(result.structuredContent) : [];
    const sameText = values.length > 0 && values.every((value) => typeof value === 'string' && parts.includes(value));
    const repeated = sameJson || sameText;
    if (!repeated) parts.push(`Structured content: ${json}`);
  }
  // Servers of the 2024 protocol answer `toolResult` instead of content.
  if (parts.length === 0 && result.toolResult !== undefined)
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  const text = parts.join('\n\n') || (result.isError ? 'the tool failed and said nothing more' : '(the tool returned nothing)');
  return text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n\n[cut: the result was ${text.length} characters; only the first ${MAX_RESULT_CHARS} are shown]`
    : text;
}
