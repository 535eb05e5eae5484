import type { SlashCommand } from '../../../kernel/augment.js';
import type { TuiPerson } from './tui-person.js';

/**
 * `/away` and `/back`: whether someone is at the prompt is the host's to say, so these belong to
 * the TUI, not to an augment. Both run during a turn, since that is when questions come.
 */
export function presenceCommands(tui: TuiPerson): SlashCommand[] {
  return [
    {
      name: 'away',
      summary: 'say you are away: questions get no answer at once, until /back',
      duringTurn: true,
      run() {
        const { away, question } = tui.snapshot();
        if (away) return { lines: ['already away; /back ends it'] };
        tui.setAway(true);
        const lines = ['away: questions are answered with no answer (away) until /back'];
        if (question) lines.push(`the open question "${question.question}" was answered as away`);
        return { lines };
      },
    },
    {
      name: 'back',
      summary: 'end /away: questions wait for your answer again',
      duringTurn: true,
      run() {
        if (!tui.snapshot().away) return { lines: ['you were not away'] };
        tui.setAway(false);
        return { lines: ['back: questions wait for your answer again'] };
      },
    },
  ];
}

/** Status-line indicator while the person is away. */
export function awayIndicator(tui: TuiPerson): string | undefined {
  return tui.snapshot().away ? 'away' : undefined;
}
