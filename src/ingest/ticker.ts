/**
 * A periodic pass inside `signals serve` (the digest scheduler, the memory builder): run now and
 * then every `everyMs`; passes never overlap (a long one delays the next); a pass that throws is
 * reported and the next one runs as planned. The timer does not keep the process alive.
 */
export interface Ticker {
  /** One pass now, or the one in progress (tests call it directly). */
  tick(): Promise<void>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startTicker(pass: () => Promise<void>, everyMs: number, onError: (err: unknown) => void): Ticker {
  let running: Promise<void> | undefined;
  const tick = (): Promise<void> => {
    running ??= pass()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  void tick();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
