/**
 * vitest globalSetup: one Selenium Grid (see `grid.ts`) for every file and worker of a project,
 * started on first use, so a run that needs no Grid starts none. Workers ask a loopback broker for
 * it (its address is in `SVC_TEST_GRID_BROKER`, and `inject('gridBroker')`): the first request
 * starts the Grid, every request answers `{ url, startMs }`. At the end of the run the Grid must
 * report 0 sessions, then it is stopped with everything it started.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { GRID_BROKER_ENV, startGrid } from './grid.js';
import type { StartedGrid } from './grid.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL that answers the shared Grid's `{ url, startMs }`, starting it on first request. */
    gridBroker: string;
  }
}

/** Starts the broker; returns the teardown that checks and stops the Grid. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let grid: Promise<StartedGrid> | undefined;
  const server = http.createServer((_req, res) => {
    grid ??= startGrid();
    grid.then(
      (g) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ url: g.url, startMs: g.startMs }));
      },
      (error: unknown) => {
        res.statusCode = 500;
        res.end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const broker = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  process.env[GRID_BROKER_ENV] = broker;
  project.provide('gridBroker', broker);

  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const started = await grid?.catch(() => undefined);
    if (!started) return;
    let open = 0;
    let chromium: number[] = [];
    try {
      open = await started.sessionCount();
      // A deleted session's browser is quit by its node's chromedriver within moments.
      for (let i = 0; i < 50 && (chromium = started.chromiumProcesses()).length > 0; i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await started.stop();
    }
    if (open > 0)
      throw new Error(`The test Grid still had ${open} open sessions at the end of the run`);
    if (chromium.length > 0)
      throw new Error(
        `The test Grid's nodes still ran Chromium at the end of the run: ${chromium.join(', ')}`,
      );
  };
}
