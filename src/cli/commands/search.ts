import { parseArgs } from 'node:util';
import { SEARCH_RECENCY_FILTERS } from '../../protocol/index.js';
import type { SearchRequest, SearchResultItem } from '../../protocol/index.js';
import { EXIT, parseOrUsage, UsageError } from '../common.js';
import { choiceOption, printJson, printTable, rangeOption } from '../output.js';
import { displayLocation, withService } from '../service.js';

const HELP = `svc search: ranked results from the index, without a language model

Usage: svc search <query...> [options]

Options:
  --max-results <n>   results to return, 1..20 (default 10)
  --domain <d>        only this domain; repeat for several; -d excludes one
  --recency <r>       hour, day, week, month or year
  --data-dir <dir>    data dir of the embedded service (default SVC_DATA_DIR or ~/.svc-toolkit)
  --json              print the response as JSON
  -h, --help          this help

Without SVC_BASE_URL the embedded service is started on the data dir (see svc index).

Examples:
  svc search sqlite fts5 ranking
  svc search "grid batteries" --max-results 5 --recency year
  svc search lithium --domain example.org --domain -spam.example --json
`;

/** `svc search <query...>`: a results table (rank, title, url, date) or the JSON response. */
export async function runSearch(argv: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage('search', () =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        'max-results': { type: 'string' },
        domain: { type: 'string', multiple: true },
        recency: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const query = positionals.join(' ').trim();
  if (query === '') throw new UsageError('search: give a query (svc search --help)');
  const maxResults = rangeOption('search', 'max-results', values['max-results'], 1, 20);
  const recency = choiceOption('search', 'recency', values.recency, SEARCH_RECENCY_FILTERS);
  const params: SearchRequest = {
    query,
    ...(maxResults !== undefined && { max_results: maxResults }),
    ...(values.domain !== undefined && { search_domain_filter: values.domain }),
    ...(recency !== undefined && { search_recency_filter: recency }),
  };

  return withService({ dataDir: values['data-dir'] }, async (service, signal) => {
    const { client } = service;
    const response = await client.search.create(params, { signal });
    if (values.json) {
      printJson(response);
      return EXIT.ok;
    }
    // A single string query answers a flat list; guard against the nested shape anyway.
    const results = response.results.flat() as SearchResultItem[];
    if (results.length === 0) {
      process.stderr.write(`svc: no results for "${query}"\n`);
      return EXIT.ok;
    }
    printTable(
      ['#', 'title', 'url', 'date'],
      results.map((r, i) => [
        String(i + 1),
        r.title,
        displayLocation(service, r.url),
        (r.date ?? r.last_updated ?? '').slice(0, 10),
      ]),
      { alignRight: [0], maxWidth: [4, 60, 1000, 10] },
    );
    return EXIT.ok;
  });
}
