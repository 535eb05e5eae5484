import type { Scenario, ScenarioTurn } from '../scenario/types.js';
import type { SuiteListener } from '../run/run-suite.js';
import { seconds } from './failures.js';

export interface Terminal {
  write(text: string): void;
  columns(): number;
}

/** A TTY line that says where the run is (scenario k of n, the turn, the elapsed time), redrawn in place. */
export class ProgressLine implements SuiteListener {
  private scenario: Scenario | undefined;
  private position = { index: 0, total: 0, run: 1, runs: 1 };
  private turn: ScenarioTurn | undefined;
  private started = 0;
  private timer: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(
    private readonly terminal: Terminal,
    private readonly now: () => number = Date.now,
  ) {}

  scenarioStarted(scenario: Scenario, position: { index: number; total: number; run: number; runs: number }): void {
    this.scenario = scenario;
    this.position = position;
    this.turn = undefined;
    this.started = this.now();
    // The elapsed seconds tick while a slow model answers; the timer never keeps the process alive.
    this.timer ??= setInterval(() => this.draw(), 500).unref();
    this.draw();
  }

  turnStarted(turn: ScenarioTurn): void {
    this.turn = turn;
    this.draw();
  }

  /** A finished scenario's result is printed where the line was; the next scenario draws it again. */
  scenarioFinished(): void {
    if (this.shown) this.terminal.write('\r\u001b[2K');
    this.shown = false;
    this.scenario = undefined;
  }

  /** The text of the line, cut to the terminal's width. */
  text(): string {
    if (!this.scenario) return '';
    const { index, total, run, runs } = this.position;
    const parts = [`scenario ${index} of ${total}${runs > 1 ? ` (run ${run} of ${runs})` : ''}`, this.scenario.name];
    if (this.turn) parts.push(`turn ${this.turn.index} of ${this.scenario.turns.length}`);
    parts.push(seconds(this.now() - this.started));
    const line = `… ${parts.join(' · ')}`;
    const width = Math.max(20, this.terminal.columns() - 1);
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  }

  private draw(): void {
    if (!this.scenario) return;
    this.terminal.write(`\r\u001b[2K${this.text()}`);
    this.shown = true;
  }

  /** Takes the line away so a result line can be printed, then puts it back. */
  around(write: () => void): void {
    if (this.shown) this.terminal.write('\r\u001b[2K');
    write();
    if (this.shown) this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.terminal.write('\r\u001b[2K');
    this.shown = false;
    this.scenario = undefined;
  }
}
