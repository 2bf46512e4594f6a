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

/** Splits text into trimmed sentences (ICU sentence boundaries), dropping fragments under 3 words. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text.replace(/\s+/g, ' '))) {
    const sentence = segment.trim();
    if (sentence.split(' ').length >= 3) out.push(sentence);
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
