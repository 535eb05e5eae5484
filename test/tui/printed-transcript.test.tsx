import { describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import type { DisplayItem } from '../../src/hosts/tui/display-items.js';
import { AboveFrameProvider, createAboveFrame } from '../../src/hosts/tui/above-frame.js';
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

  it('prints items finished later after the opening ones, each once, as text', async () => {
    const printed: string[] = [];
    const print = (text: string) => printed.push(text);
    const app = render(<PrintedTranscript items={opening} width={100} print={print} />);
    const later: DisplayItem = { kind: 'assistant', id: 'a2', text: 'The worker is done.', continued: false };
    // Finished before the opening text was out: it still comes after it.
    app.rerender(<PrintedTranscript items={[...opening, later]} width={100} print={print} />);
    await vi.waitFor(() => expect(printed).toHaveLength(2));
    expect(printed).toEqual([transcriptText(opening, 100, COLOUR_PALETTE), transcriptText([later], 100, COLOUR_PALETTE)]);
    // Drawn again with nothing new, it prints nothing more.
    app.rerender(<PrintedTranscript items={[...opening, later]} width={100} print={print} />);
    expect(printed).toHaveLength(2);
    app.unmount();
  });

  it('prints nothing at once for an empty transcript, then each item as it finishes', () => {
    const print = vi.fn();
    const app = render(<PrintedTranscript items={[]} width={100} print={print} />);
    expect(print).not.toHaveBeenCalled();
    app.rerender(<PrintedTranscript items={[opening[0]]} width={100} print={print} />);
    expect(print).toHaveBeenCalledExactlyOnceWith(transcriptText([opening[0]], 100, COLOUR_PALETTE));
    app.unmount();
  });

  it('in the chat, holds an item finished later until Ink draws its next frame, and prints it right after', async () => {
    const aboveFrame = createAboveFrame();
    const print = vi.fn();
    const app = render(
      <AboveFrameProvider value={aboveFrame}>
        <PrintedTranscript items={[]} width={100} print={print} />
      </AboveFrameProvider>,
    );
    // The test's renderer is not Ink's chat: its frames do not reach this AboveFrame, so they are told by hand.
    aboveFrame.onRender();
    app.rerender(
      <AboveFrameProvider value={aboveFrame}>
        <PrintedTranscript items={[opening[0]]} width={100} print={print} />
      </AboveFrameProvider>,
    );
    await Promise.resolve();
    expect(print).not.toHaveBeenCalled();
    aboveFrame.onRender();
    // Not inside the render, before Ink writes its frame, but as soon as that is done.
    expect(print).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(print).toHaveBeenCalledExactlyOnceWith(transcriptText([opening[0]], 100, COLOUR_PALETTE));
    aboveFrame.onRender();
    await Promise.resolve();
    expect(print).toHaveBeenCalledOnce();
    app.unmount();
  });

  it('in the chat, prints what waits for a frame at once when told to before exiting', () => {
    const aboveFrame = createAboveFrame();
    const print = vi.fn();
    const tree = (items: DisplayItem[]) => (
      <AboveFrameProvider value={aboveFrame}>
        <PrintedTranscript items={items} width={100} print={print} alreadyPrinted />
      </AboveFrameProvider>
    );
    const app = render(tree([]));
    app.rerender(tree([opening[0]]));
    expect(print).not.toHaveBeenCalled();
    aboveFrame.flush();
    expect(print).toHaveBeenCalledExactlyOnceWith(transcriptText([opening[0]], 100, COLOUR_PALETTE));
    aboveFrame.onRender();
    aboveFrame.flush();
    expect(print).toHaveBeenCalledOnce();
    app.unmount();
  });

  it('drops a print still waiting for a frame once unmounted: a resize or /clear prints everything again', async () => {
    const aboveFrame = createAboveFrame();
    const print = vi.fn();
    const tree = (items: DisplayItem[], key: number) => (
      <AboveFrameProvider value={aboveFrame}>
        <PrintedTranscript key={key} items={items} width={100} print={print} alreadyPrinted />
      </AboveFrameProvider>
    );
    const app = render(tree([], 0));
    app.rerender(tree([opening[0]], 0));
    app.unmount();
    aboveFrame.onRender();
    await Promise.resolve();
    expect(print).not.toHaveBeenCalled();
  });
});
