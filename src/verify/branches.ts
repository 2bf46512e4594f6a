/**
 * Branches: a page that gives one value in a case and another "otherwise" ("It will return true if
 * the passed object is an instance of BufferList or BufferListStream and false otherwise",
 * "defaults to 0o755 for dirs and 0o644 otherwise"). Both values are on the page, and so are the
 * case's words; a claim that pairs the "otherwise" value with the case ("returns false for a
 * BufferListStream instance") states every word and the opposite fact.
 */
import type { Conflict } from './verify-claim.js';
import { escapeRegExp } from './words.js';

/** Values a branch gives: booleans, nothing, numbers and codes ("0o644", "-1", "0x10"). */
const VALUE = String.raw`(?:true|false|null|none|undefined|nil|nan|-?\d[\w.]*)`;

/** Where a value starts: not inside a word, a name or a number ("-1", not the "1" of it). */
const START = String.raw`(?<![\w.-])`;

/** Where a value ends: not inside a word or a name (a full stop after it ends the sentence). */
const END = String.raw`(?![\w-]|\.\w)`;

/** Up to `n` words. */
const words = (n: number): string => String.raw`(?:[\w'-]+\s+){0,${n}}?`;

/**
 * Branches, value first: "V1 [is returned] if|when|for|in CASE[,] [and] V2 [is returned]
 * otherwise", and "V1 if|when CASE, otherwise [returns] V2".
 */
const VALUE_FIRST = [
  new RegExp(
    String.raw`${START}(${VALUE})\b\s+${words(3)}(?:if|when|whenever|for|in)\s+([^;.]+?),?\s+(?:and\s+|or\s+|but\s+)?(?:an?\s+|the\s+)?(${VALUE})\b\s+${words(3)}otherwise\b`,
    'gi',
  ),
  new RegExp(
    String.raw`${START}(${VALUE})\b\s+${words(3)}(?:if|when|whenever)\s+([^;.]+?)[,;]\s*otherwise,?\s+${words(2)}(${VALUE})\b`,
    'gi',
  ),
];

/** Branches, case first: "If|When CASE, [it returns] V1[, ...]; otherwise[,] [it returns] V2". */
const CASE_FIRST = new RegExp(
  String.raw`\b(?:if|when|whenever)\s+([^,;.]+?),\s*${words(4)}${START}(${VALUE})\b[^;.]*?[;,]\s*otherwise,?\s+${words(3)}(${VALUE})\b`,
  'gi',
);

/** A case and the value the page gives in it (`inCase`) and out of it (`otherwise`). */
interface Branch {
  text: string;
  condition: string;
  inCase: string;
  otherwise: string;
}

/** The branches a page states. */
function branchesOf(page: string): Branch[] {
  const out: Branch[] = [];
  for (const re of VALUE_FIRST) {
    for (const m of page.matchAll(re)) {
      out.push({ text: m[0], condition: m[2]!, inCase: m[1]!, otherwise: m[3]! });
    }
  }
  for (const m of page.matchAll(CASE_FIRST)) {
    out.push({ text: m[0], condition: m[1]!, inCase: m[2]!, otherwise: m[3]! });
  }
  // Two values alike make no branch ("0 if ..., 0 otherwise").
  return out.filter((b) => b.inCase.toLowerCase() !== b.otherwise.toLowerCase());
}

/** Words that put a claim's statement outside a case, or deny it ("for anything else"). */
const OUTSIDE =
  /\b(?:not|no|never|unless|except|otherwise|else|other|others|non|neither|nor|anything|everything|rest|outside|without)\b|n't\b/i;

/** Words too common to name a case. */
const COMMON = new Set(
  (
    'the a an of is are be been was were it its this that these those any some there their ' +
    'passed given object value set specified one has have with by to on at as'
  ).split(' '),
);

/** The words of a case that name it. */
const caseWords = (condition: string): string[] =>
  (condition.toLowerCase().match(/[\p{L}\p{N}_$]{3,}/gu) ?? []).filter((w) => !COMMON.has(w));

/** Two words alike, or one a shortening of the other ("dirs" / "directories"). */
function alike(a: string, b: string): boolean {
  const [x, y] = [a.replace(/s$/, ''), b.replace(/s$/, '')];
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= 3 && long.startsWith(short);
}

/** Where a statement of the claim ends: punctuation, or a word joining another statement. */
const STATEMENT_END = /[;,:]|\.(?:\s|$)|\b(?:and|but|whereas|while|otherwise)\b/gi;

/** The statement of `claim` around offset `at`. */
function statementAround(claim: string, at: number): string {
  let start = 0;
  let end = claim.length;
  for (const m of claim.matchAll(STATEMENT_END)) {
    if (m.index! + m[0].length <= at) start = m.index! + m[0].length;
    else if (m.index! >= at) {
      end = m.index!;
      break;
    }
  }
  return claim.slice(start, end);
}

/**
 * A claim statement that gives a branch's "otherwise" value in its case: it names a word of the
 * case that the rest of the page's sentence does not, puts nothing outside the case, and does not
 * give the case's own value beside it.
 */
export function branchConflicts(claim: string, page: string): Conflict[] {
  for (const b of branchesOf(page)) {
    const rest = b.text.replace(b.condition, ' ').toLowerCase();
    const naming = caseWords(b.condition).filter(
      (w) => !(rest.match(/[\p{L}\p{N}_$]{3,}/gu) ?? []).some((r) => alike(r, w)),
    );
    const value = new RegExp(`${START}${escapeRegExp(b.otherwise)}${END}`, 'gi');
    const own = new RegExp(`${START}${escapeRegExp(b.inCase)}${END}`, 'i');
    for (const m of claim.matchAll(value)) {
      const statement = statementAround(claim, m.index!);
      if (OUTSIDE.test(statement) || own.test(statement)) continue;
      const said = statement.toLowerCase().match(/[\p{L}\p{N}_$]{3,}/gu) ?? [];
      if (!naming.some((w) => said.some((s) => alike(s, w)))) continue;
      return [
        {
          kind: 'term',
          claim: statement.trim(),
          page: `${b.inCase} when ${b.condition.trim()}`,
        },
      ];
    }
  }
  return [];
}
