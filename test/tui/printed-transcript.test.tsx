import { describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import type { DisplayItem } from '../../src/hosts/tui/display-items.js';
import { COLOUR_PALETTE } from '../../src/hosts/tui/palette.js';
import { PrintedTranscript } from '../../src/hosts/tui/printed-transcript.js';
import { transcriptText } from '../../src/hosts/tui/transcript-rows/transcript-text.js';

const opening: DisplayItem[] = [
  { kind: 'user', id: 'u1', text: 'how is the deploy going?' },
  { kind: 'assistant', id: 'a1', text: 'It is **green**; the table:\n\n| service | state |\n|---|---|\n| api | 40% |', continued: false },
  { kind: 'user', id: 'u2', text: 'and the worker? 服务' },
];

describe('the printed transcript', () => {
  it('prints what is finished at the start as one text through Ink, above its frame', async () => {
    const app = render(<PrintedTranscript items={opening} width={100} />);
    const expected = transcriptText(opening, 100, COLOUR_PALETTE);
    await vi.waitFor(() => expect(app.frames.join('')).toContain(expected));
    // An item Ink draws itself (the table, the wide characters) is printed whole, not left empty.
    expect(expected).toContain('│');
    expect(expected).toContain('服务');
    expect(app.frames.filter((frame) => frame.includes('how is the deploy going?'))).toHaveLength(1);
    app.unmount();
  });

  it('prints items finished later after the opening ones, each once', async () => {
    const printed: string[] = [];
    let framesBefore = -1;
    const print = (text: string) => {
      printed.push(text);
      framesBefore = app.frames.length;
    };
    const app = render(<PrintedTranscript items={opening} width={100} print={print} />);
    const later: DisplayItem = { kind: 'assistant', id: 'a2', text: 'The worker is done.', continued: false };
    // Finished before the opening text was out: it still comes after it.
    app.rerender(<PrintedTranscript items={[...opening, later]} width={100} print={print} />);
    await vi.waitFor(() => expect(app.lastFrame()).toContain('The worker is done.'));
    expect(printed).toEqual([transcriptText(opening, 100, COLOUR_PALETTE)]);
    expect(app.frames.findIndex((frame) => frame.includes('The worker is done.'))).toBeGreaterThanOrEqual(framesBefore);
    expect(printed[0]).not.toContain('The worker is done.');
    app.unmount();
  });

  it('prints nothing at once for an empty transcript', () => {
    const print = vi.fn();
    const app = render(<PrintedTranscript items={[]} width={100} print={print} />);
    app.rerender(<PrintedTranscript items={[opening[0]]} width={100} print={print} />);
    expect(app.lastFrame()).toContain('how is the deploy going?');
    expect(print).not.toHaveBeenCalled();
    app.unmount();
  });
});
