import { SEARCH_RECENCY_FILTERS } from '../../protocol/index.js';
import type { SearchRequest, SearchResultItem } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { choiceOption, printJson, printTable, rangeOption } from '../output.js';
import { displayLocation } from '../service.js';

/** `svc search <query...>`: a results table (rank, title, url, date) or the JSON response. */
export const searchCommand = defineCommand({
  name: 'search',
  summary: 'ranked results from the index, without a language model',
  usage: 'svc search <query...> [options]',
  positionals: true,
  options: {
    'max-results': { type: 'string', arg: '<n>', help: 'results to return, 1..20 (default 10)' },
    domain: {
      type: 'string',
      multiple: true,
      arg: '<d>',
      help: 'only this domain; repeat for several; -d excludes one',
    },
    recency: { type: 'string', arg: '<r>', help: 'hour, day, week, month or year' },
  },
  json: 'print the response as JSON',
  dataDir: true,
  notes: 'Without SVC_BASE_URL the embedded service is started on the data dir (see svc index).',
  examples: [
    'svc search sqlite fts5 ranking',
    'svc search "grid batteries" --max-results 5 --recency year',
    'svc search lithium --domain example.org --domain -spam.example --json',
  ],
  async run(ctx) {
    const { values, positionals } = ctx;
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

    const service = await ctx.service();
    const response = await service.client.search.create(params, { signal: ctx.signal });
    if (ctx.json) {
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
  },
});
