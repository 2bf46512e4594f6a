/** A located passage as findPassages returns it, for tests where only method, score and quote matter. */
import type { PassageMatch } from '../../../src/index.js';

export const match = (
  method: PassageMatch['method'],
  score: number,
  quote: string,
): PassageMatch => ({
  method,
  score,
  quote,
  domPath: 'p',
  rect: { x: 0, y: 0, width: 1, height: 1 },
  range: { start: { node: 0, offset: 0 }, end: { node: 0, offset: quote.length } },
});
