import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageMentions, mentionedImages } from '../../src/hosts/tui/image-mentions.js';
import { PNG_BYTES, writePng } from '../helpers/images.js';

describe('@path images in a chat message', () => {
  it('finds image paths after @, quoted or not, and leaves other @words alone', () => {
    expect(imageMentions("what is @chart.png and @'my shot.jpg' says @alice")).toEqual(['chart.png', 'my shot.jpg']);
  });

  it('reads a path that ends a sentence without the punctuation after it', () => {
    expect(imageMentions('what is in @pic.png? compare @a.jpg, @b.webp. (see @c.gif)')).toEqual(['pic.png', 'a.jpg', 'b.webp', 'c.gif']);
  });

  it('reads a mentioned image relative to the folder, and a missing one stops the turn in one sentence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'auggy-mention-'));
    writePng(dir, 'dot.png');
    const [image] = await mentionedImages('look @dot.png', dir);
    expect(Buffer.from(image.data)).toEqual(PNG_BYTES);
    await expect(mentionedImages('look @gone.png', dir)).rejects.toThrow(`${join(dir, 'gone.png')} does not exist; check the path of the image`);
  });
});
