/** Links that open a page scrolled to a quote, per the URL Fragment Text Directives spec. */
import { DEFAULTS } from './defaults.js';

/** Options of {@link textFragmentUrl}. */
export interface TextFragmentOptions {
  /** Quotes with more words than this become `textStart,textEnd`. @default 10 */
  maxWords?: number;
  /** Words kept at each end of a long quote. @default 4 */
  edgeWords?: number;
}

/** Percent-encodes a directive term: `encodeURIComponent` plus `-`, which the syntax reserves. */
function encodeTerm(text: string): string {
  return encodeURIComponent(text).replace(/-/g, '%2D');
}

/**
 * Builds `url#:~:text=...` pointing at `quote`. Terms are percent-encoded, `-`, `,` and `&`
 * included. A long quote becomes `textStart,textEnd` from its first and last words. An existing
 * fragment is kept before the directive; an existing text directive is replaced.
 * @example textFragmentUrl('https://a.example/p', 'rock-solid, fast & small')
 * // 'https://a.example/p#:~:text=rock%2Dsolid%2C%20fast%20%26%20small'
 */
export function textFragmentUrl(
  url: string,
  quote: string,
  options: TextFragmentOptions = {},
): string {
  const maxWords = options.maxWords ?? DEFAULTS.fragmentMaxWords;
  const edge = options.edgeWords ?? DEFAULTS.fragmentEdgeWords;
  const words = quote.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash + 1).split(':~:')[0]!;
  if (words.length === 0) return fragment ? `${base}#${fragment}` : base;
  const directive =
    words.length > maxWords && words.length > edge * 2
      ? `${encodeTerm(words.slice(0, edge).join(' '))},${encodeTerm(words.slice(-edge).join(' '))}`
      : encodeTerm(words.join(' '));
  return `${base}#${fragment}:~:text=${directive}`;
}
