import { countTokens, truncateToTokens } from '../../../protocol/index.js';

/** Why generation ended, as the spec's `finish_reason`. */
export type FinishReason = 'stop' | 'length';

/**
 * Applies `max_tokens` and `stop` to generated text as it arrives, so a streamed answer and the
 * non-streamed one end at exactly the same character. Text that could be the start of a stop
 * sequence is held back until the next piece decides it.
 */
export class OutputLimiter {
  private text = '';
  private emitted = 0;
  private reason: FinishReason | null = null;
  private readonly holdBack: number;

  constructor(
    private readonly maxTokens: number | null | undefined,
    private readonly stops: readonly string[],
  ) {
    this.holdBack = Math.max(0, ...stops.map((s) => s.length - 1));
  }

  /** Adds generated text; returns what may be sent now ('' once finished). */
  push(piece: string): string {
    if (this.reason !== null) return '';
    this.text += piece;
    const stopAt = this.findStop();
    if (stopAt !== -1) {
      this.text = this.text.slice(0, stopAt);
      this.reason = 'stop';
    }
    if (this.maxTokens != null && countTokens(this.text) > this.maxTokens) {
      const cut = truncateToTokens(this.text, this.maxTokens);
      // BPE merges across a piece boundary can move the cut; never take back text already sent.
      this.text = cut.length >= this.emitted ? cut : this.text.slice(0, this.emitted);
      this.reason = 'length';
    }
    const safeEnd =
      this.reason === null
        ? Math.max(this.emitted, this.text.length - this.holdBack)
        : this.text.length;
    const out = this.text.slice(this.emitted, safeEnd);
    this.emitted = safeEnd;
    return out;
  }

  /** Ends generation: returns the held-back rest. */
  end(): string {
    const out = this.text.slice(this.emitted);
    this.emitted = this.text.length;
    this.reason ??= 'stop';
    return out;
  }

  /** True once a stop sequence or the token limit ended the output. */
  get finished(): boolean {
    return this.reason !== null;
  }

  /** The finish reason (`stop` until the limit or a stop sequence says otherwise). */
  get finishReason(): FinishReason {
    return this.reason ?? 'stop';
  }

  /** All text accepted so far. */
  get content(): string {
    return this.text;
  }

  private findStop(): number {
    let best = -1;
    const from = Math.max(0, this.emitted - this.holdBack);
    for (const stop of this.stops) {
      if (stop === '') continue;
      const at = this.text.indexOf(stop, from);
      if (at !== -1 && (best === -1 || at < best)) best = at;
    }
    return best;
  }
}
