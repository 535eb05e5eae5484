import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * The person's message from an ACP prompt: text as it is, an embedded text resource as its text
 * under its uri, a resource link as its uri (the agent reads no files itself). Images, audio and
 * binary resources are not advertised, so a client that sends one anyway gets it named, not read.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts = blocks.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource':
        return 'text' in block.resource
          ? `<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`
          : `[binary resource ${block.resource.uri}, not read]`;
      case 'resource_link':
        return `[${block.title ?? block.name}](${block.uri})`;
      case 'image':
        return '[an image, not read: this agent reads text only]';
      case 'audio':
        return '[audio, not read: this agent reads text only]';
      default:
        return '';
    }
  });
  return parts.filter((part) => part !== '').join('\n\n');
}
