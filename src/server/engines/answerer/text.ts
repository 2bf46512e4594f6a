const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how i if in into ' +
    'is it its itself me more most my no not of on or our out over own same she should so some such than ' +
    'that the their them then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your about after again against all am ' +
    'any because before below between both during each few further he her here hers him his just nor off ' +
    'once only other ours shall than tell explain describe give list please using use used also via per ' +
    'der die das und ist ein eine le la les des est et un une de du'
  ).split(' '),
);

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

// Running text ends a sentence with terminal punctuation (optionally closed by a quote or bracket);
// headings, labels ("Returns: ProxyAgent") and code lines mostly do not.
const TERMINAL = /[.!?…。！？]["'”’)\]]?$/u;
// A sentence starts with a capital, a digit, a quote or a bracket: a lowercase start is a list of
// identifiers ("maxRetries number (optional) - ...") or the tail of something cut.
const PROSE_START = /^[^\p{Ll}\p{P}\p{S}]|^["'“‘(¿¡]/u;
const CODE_LINE =
  /[{};]\s*$|=>|^\s*(?:import|export|const|let|var|function|return|await|if|for|while|class|def|from|#include)\b|^\s*[\w.$]+\(.*\)\s*$|^\s{2,}\S|^\s*(?:\$|>>>|\/\/|#!)/;
// "name `type` (optional) - description", "term - definition": entries of a definition list.
const DEFINITION = /\((?:optional|required)\)|^\S+(?:\s+\S+){0,2}\s+[-–—]\s/i;
// "Default: 5", "Returns: ProxyAgent": a label and a short value, not a clause.
const LABEL = /^[\p{L}][\p{L}\s]{0,24}:\s*(\S+(?:\s+\S+){0,3})$/u;

/** True when most lines of a multi-line block read as source code (a fenced block kept verbatim). */
function isCodeBlock(lines: readonly string[]): boolean {
  const code = lines.filter((l) => CODE_LINE.test(l)).length;
  return code * 2 >= lines.length;
}

/** True when `sentence` is a sentence of running text (see {@link proseSentences}). */
function isProse(sentence: string): boolean {
  if (sentence.split(' ').length < 3) return false;
  if (!TERMINAL.test(sentence) || !PROSE_START.test(sentence)) return false;
  if (DEFINITION.test(sentence) || LABEL.test(sentence.replace(TERMINAL, ''))) return false;
  if (/[{}]|=>|\|.*\|/.test(sentence)) return false;
  // Paths, markup, punctuation runs: mostly symbols rather than words and numbers.
  const letters = sentence.match(/[\p{L}\p{N}\s]/gu)?.length ?? 0;
  return letters >= 0.7 * sentence.length;
}

/**
 * The sentences of running text in `text` (a chunk as the index lays it out: blocks separated by
 * a blank line). Each paragraph is segmented on its own, so a heading is never glued to the
 * sentence after it; headings, label lines ("Returns: ProxyAgent"), definition-list entries, code
 * blocks and table rows are dropped, as is anything without terminal punctuation. Single line
 * breaks inside a paragraph of prose (hard-wrapped text) read as spaces.
 * @example proseSentences('# Setup\n\nInstall it first. Then run it.') // ['Install it first.', 'Then run it.']
 */
export function proseSentences(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const lines = paragraph.split('\n').filter((l) => l.trim());
    if (lines.length === 0 || (lines.length > 1 && isCodeBlock(lines))) continue;
    for (const { segment } of segmenter.segment(lines.join(' ').replace(/\s+/g, ' '))) {
      const sentence = segment.trim();
      if (isProse(sentence)) out.push(sentence);
    }
  }
  return out;
}

/** Light suffix stripping so "browsers"/"browser" and "indexing"/"indexed" meet. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'es', 'ed', 'ly', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      return suffix === 'ies' || suffix === 'ied'
        ? word.slice(0, -3) + 'y'
        : word.slice(0, -suffix.length);
    }
  }
  return word;
}

/** Content words of `text`: lowercased, stopwords removed, stemmed. */
export function terms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu) ?? [];
  return words.filter((w) => !STOPWORDS.has(w) && w.length > 1).map(stem);
}

/** The text of the last user message (string content, or its text chunks joined). */
export function lastUserText(
  messages: readonly {
    role: string;
    content: string | readonly { type: string; text?: string }[] | null;
  }[],
): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user' || m.content === null) continue;
    if (typeof m.content === 'string') return m.content;
    return m.content
      .filter((c) => c.type === 'text' && typeof c.text === 'string')
      .map((c) => c.text)
      .join(' ');
  }
  return '';
}
