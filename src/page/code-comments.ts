/**
 * The prose inside code: a README's example often states a fact only in a comment ("// the last
 * proxy will establish a connection to the destination"). Each line comment (`//`, `#`, `--`) and
 * block comment (`/* *\/`) of a `<pre>` run that reads as words becomes a passage of its own;
 * commented-out code does not.
 */
import type { NormalizedText, Span, TextSegments } from './text.js';

/** Least words of letters a comment needs to be a passage ("// ipv4 or hostname" is too short). */
const MIN_WORDS = 4;

/**
 * The raw text that a space of the normalised text at `j` stands for (the whitespace up to the
 * next character), read across text nodes.
 */
function rawSpace(segments: TextSegments, norm: NormalizedText, j: number): string {
  const a = norm.node[j]!;
  const from = norm.offset[j]!;
  if (j + 1 >= norm.text.length) return segments.texts[a]!.slice(from);
  const b = norm.node[j + 1]!;
  const to = norm.offset[j + 1]!;
  if (a === b) return segments.texts[a]!.slice(from, to);
  let out = segments.texts[a]!.slice(from);
  for (let n = a + 1; n < b; n++) out += segments.texts[n]!;
  return out + segments.texts[b]!.slice(0, to);
}

/** Spans of the lines of `[start, end)` of the normalised text (a line ends where a newline was). */
export function linesOf(
  segments: TextSegments,
  norm: NormalizedText,
  start: number,
  end: number,
): Span[] {
  const lines: Span[] = [];
  let s = start;
  for (let j = start; j < end; j++) {
    if (norm.text[j] !== ' ' || !/[\n\r]/.test(rawSpace(segments, norm, j))) continue;
    if (j > s) lines.push({ start: s, end: j });
    s = j + 1;
  }
  if (end > s) lines.push({ start: s, end });
  return lines;
}

/** Where a line comment's text starts in `line`, or -1: `//` not in a URL, `#` or `--` + space. */
function lineComment(line: string): number {
  const m = /(?:^|[^:/\w])\/\/+\s?|(?:^|\s)#+\s|(?:^|\s)--\s/.exec(line);
  return m ? m.index + m[0].length : -1;
}

/** True when a comment reads as prose: enough words, and not code put out of use. */
function isProse(text: string): boolean {
  const words = text.match(/\p{L}{2,}/gu) ?? [];
  if (words.length < MIN_WORDS) return false;
  // Commented-out code: a call, an assignment, a statement's end, braces.
  if (
    /[;{}]\s*$|^\s*[\w.$]+\s*\(|^\s*(?:const|let|var|import|return)\b|\w\s*=\s*[\w'"[{(]/u.test(
      text,
    )
  )
    return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters >= text.replace(/\s/g, '').length * 0.7;
}

/** Most lines of a block of settings read as prose ({@link settingsBlock}). */
const MAX_SETTING_LINES = 12;

/**
 * One setting per line: `"key": value`, `key: value`, `key = value` (JSON, a JS object, YAML, INI,
 * an environment file), the value a literal (a string, a number, a boolean, null, a short list or
 * a bare word); or a brace, a bracket, a comment.
 */
const SETTING_LINE =
  /^(?:[{}[\]]+[,;]?|(?:\/\/|#).*|["']?[\w$.-]+["']?\s*[:=]\s*(?:"[^"]*"|'[^']*'|`[^`]*`|-?[\d.][\d_.]*|true|false|null|undefined|\[[^\]]*\]|[\w.*/-]+)\s*[,;]?)$/;

/**
 * True when the code run `[start, end)` is a short block of settings only (a defaults object, a
 * configuration file), no statement or call: read after the sentence introducing it ("The default
 * configuration is the equivalent of:"), it states values as a table would.
 */
export function settingsBlock(
  segments: TextSegments,
  norm: NormalizedText,
  start: number,
  end: number,
): boolean {
  const lines = linesOf(segments, norm, start, end);
  let settings = 0;
  for (const line of lines) {
    const text = norm.text.slice(line.start, line.end).trim();
    if (!SETTING_LINE.test(text)) return false;
    if (/[:=]/.test(text) && !/^(?:\/\/|#)/.test(text)) settings++;
  }
  return settings > 0 && lines.length <= MAX_SETTING_LINES;
}

/**
 * The comments of the code run `[start, end)` of the normalised text that read as prose, each as
 * the span of its text (markers left out); consecutive comment lines come as one group, so a
 * sentence carried over two lines stays one block.
 */
export function codeComments(
  segments: TextSegments,
  norm: NormalizedText,
  start: number,
  end: number,
): Span[][] {
  const groups: Span[][] = [];
  let group: Span[] = [];
  let open: number | undefined;
  const close = (): void => {
    if (group.length > 0) groups.push(group);
    group = [];
  };
  for (const line of linesOf(segments, norm, start, end)) {
    const text = norm.text.slice(line.start, line.end);
    let from = -1;
    let to = line.end;
    if (open !== undefined) {
      from = line.start;
    } else {
      const block = text.indexOf('/*');
      const lineAt = lineComment(text);
      if (block >= 0 && (lineAt < 0 || block < lineAt)) {
        open = block;
        from = line.start + block + 2;
      } else if (lineAt >= 0) {
        from = line.start + lineAt;
      }
    }
    let ended = false;
    if (open !== undefined) {
      const stop = norm.text.indexOf('*/', from);
      if (stop >= 0 && stop < line.end) {
        to = stop;
        open = undefined;
        ended = true;
      }
    }
    if (from < 0) {
      close();
      continue;
    }
    // Leading `*` of a block comment's inner lines, and spaces.
    while (from < to && /[\s*]/.test(norm.text[from]!)) from++;
    while (to > from && norm.text[to - 1] === ' ') to--;
    const comment = norm.text.slice(from, to);
    if (isProse(comment)) group.push({ start: from, end: to });
    // A block comment is a group of its own.
    if (!isProse(comment) || ended) close();
  }
  close();
  return groups;
}
