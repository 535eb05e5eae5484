/**
 * A call's timeout that stops while the person is answering the server (a form, a sampling
 * yes): the limit bounds a silent server, never a person reading a form. Aborts `signal` when
 * the server has been silent for `ms` in all.
 */
export class CallClock {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;

  constructor(readonly ms: number) {
    this.run();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  private run(): void {
    this.timer = setTimeout(() => this.controller.abort(new Error(`no answer within ${this.ms} ms`)), this.ms);
  }

  /** Stops the clock until the returned function is called; the server then gets its full time again. */
  hold(): () => void {
    if (this.holds++ === 0) clearTimeout(this.timer);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && !this.expired) this.run();
    };
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
