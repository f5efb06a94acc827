/**
 * Failed sign-ins per account, so a password cannot be guessed at network speed: after `limit`
 * failures within `windowMs`, that email is refused (429) until the oldest failure ages out. A
 * success clears the count. Kept in memory per process (several processes each allow `limit`),
 * keyed by the normalised email so it holds whichever address the guesses come from.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly maxTracked = 10_000,
  ) {}

  /** Milliseconds until the email may try again, or 0 when it may now. */
  retryAfterMs(email: string, now = Date.now()): number {
    const recent = this.recent(email, now);
    return recent.length < this.limit ? 0 : recent[0]! + this.windowMs - now;
  }

  fail(email: string, now = Date.now()): void {
    // Bounded memory: under a flood of distinct emails, forget the oldest entries first.
    if (!this.failures.has(email) && this.failures.size >= this.maxTracked) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(email, [...this.recent(email, now), now]);
  }

  succeed(email: string): void {
    this.failures.delete(email);
  }

  private recent(email: string, now: number): number[] {
    return (this.failures.get(email) ?? []).filter((t) => now - t < this.windowMs);
  }
}
