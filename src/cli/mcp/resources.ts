// MCP resources: the evidence reports written in this run (`report://<id>/report.html|json`) and
// the recordings of sessions opened here with `record: true`
// (`recording://<session_id>/recording.json|replay.html`), read through the client.
import { readFile } from 'node:fs/promises';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpRuntime } from './runtime.js';

const REPORT_FILES = {
  'report.html': 'text/html',
  'report.json': 'application/json',
} as const;

/** Registers the report and recording resources on `server`. */
export function registerResources(server: McpServer, rt: McpRuntime): void {
  server.registerResource(
    'report',
    new ResourceTemplate('report://{id}/{file}', {
      list: () => ({
        resources: [...rt.reports.values()].flatMap((r) =>
          Object.entries(REPORT_FILES).map(([file, mimeType]) => ({
            uri: `report://${r.id}/${file}`,
            name: `${r.tool} ${r.id} ${file}`,
            title: `${r.tool}: ${r.subject}`,
            description: `Evidence report written by ${r.tool} at ${r.createdAt}`,
            mimeType,
          })),
        ),
      }),
    }),
    {
      title: 'Evidence reports',
      description: 'Reports written by verify and cite in this run: report.html and report.json.',
    },
    async (uri, variables) => {
      const report = rt.reports.get(String(variables.id));
      const file = String(variables.file);
      if (!report || !(file in REPORT_FILES)) {
        throw new Error(
          `No report resource ${uri.href}: list resources for the reports of this run`,
        );
      }
      const kind = file as keyof typeof REPORT_FILES;
      const path = kind === 'report.html' ? report.files.html : report.files.json;
      return {
        contents: [
          { uri: uri.href, mimeType: REPORT_FILES[kind], text: await readFile(path, 'utf8') },
        ],
      };
    },
  );

  server.registerResource(
    'recording',
    new ResourceTemplate('recording://{session_id}/{file}', {
      list: () => ({
        resources: [...rt.recordings.values()].flatMap((r) => [
          {
            uri: `recording://${r.sessionId}/recording.json`,
            name: `recording ${r.sessionId} events`,
            description: 'rrweb events ordered by time, and the page URL markers',
            mimeType: 'application/json',
          },
          {
            uri: `recording://${r.sessionId}/replay.html`,
            name: `recording ${r.sessionId} replay`,
            description: 'A self-contained replay page: save it and open it in any browser',
            mimeType: 'text/html',
          },
        ]),
      }),
    }),
    {
      title: 'Session recordings',
      description:
        'Recordings of the browser sessions opened here with record: true (kept after the session ends).',
    },
    async (uri, variables) => {
      const id = String(variables.session_id);
      const file = String(variables.file);
      if (!rt.recordings.has(id) || (file !== 'recording.json' && file !== 'replay.html')) {
        throw new Error(`No recording resource ${uri.href}: list resources for the recordings`);
      }
      await rt.ready;
      const recording = rt.client.browser.sessions.recording;
      const [mimeType, text] =
        file === 'replay.html'
          ? ['text/html', await recording.html(id)]
          : ['application/json', JSON.stringify(await recording.get(id))];
      return { contents: [{ uri: uri.href, mimeType, text }] };
    },
  );
}
