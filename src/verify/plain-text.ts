/**
 * Plain text shown as is: whether a preformatted block is prose or code. Shared by the index's
 * HTML readers and the evidence recipes' passage units, which both meet `<pre>` blocks.
 */

/**
 * True when preformatted text reads as prose, not code: a plain-text document shown as is (an
 * RFC, a guide wrapped at 80 columns in `<pre>`). Most of its lines hold five words or more, it
 * ends a sentence, and code's marks (braces, semicolons, "=", "<", pipes), lines that open
 * with a prompt, a comment leader, an option ("-h, --help") or "key = value", and lines of code (a comment after code, a
 * statement's keyword or bracket) are rare. The index's HTML readers and the
 * evidence recipes' passage units both read a `<pre>` by it.
 */
export function readsAsProse(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const wordy = lines.filter((l) => (l.match(/[A-Za-z][A-Za-z'-]*/g) ?? []).length >= 5);
  const prompts = lines.filter((l) =>
    /^\s*(?:[#$>;]|\/\/|\/\*|\*\s|--?[A-Za-z]|usage:|[\w.-]+\s*[:=]\s*\S*$)/i.test(l),
  );
  // A line of code or of a table: a comment after code, an arrow, a keyword that declares
  // something, an opening bracket that ends it or a closing one that opens it ("limit: 100, //
  // per window"), columns set apart by runs of spaces, a ruler.
  const code = lines.filter((l) =>
    /\S\s*(?:\/\/|\/\*)|=>|^\s*(?:import|export|const|let|var|function|def|class)\s+[\w${]|[{([]\s*$|^\s*[)}\]]|\S {2,}\S.*\S {2,}\S|^\s*[-=_*]{5,}\s*$/.test(
      l,
    ),
  );
  const marks = (text.match(/[{};=<>|\\]/g) ?? []).length;
  const ends = (text.match(/[a-z)][.!?](?=\s|$)/g) ?? []).length;
  return (
    lines.length > 0 &&
    wordy.length >= lines.length * 0.6 &&
    prompts.length <= lines.length * 0.2 &&
    code.length <= lines.length * 0.1 &&
    marks <= text.length * 0.01 &&
    ends >= 1
  );
}
