import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/recipes/**/*.test.ts'],
          environment: 'node',
          // One Selenium Grid for the whole project, started only when a test first asks for it.
          globalSetup: ['test/support/grid-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Real Chromium processes on a 2-core machine: keep integration files from piling up.
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The same key, session, context and idempotency tests, on PostgreSQL shared state: one
          // server for the project (globalSetup), a fresh database per test server.
          name: 'integration-pg',
          include: [
            'test/integration/server/**/*.test.ts',
            'test/integration/client/resources.test.ts',
            'test/integration/browser-sessions/{routes,cdp,contexts,lifecycle,retry-capacity}.test.ts',
            // Async jobs over HTTP (test/integration/jobs runs both stores in each file itself).
            'test/integration/engine/async.test.ts',
          ],
          environment: 'node',
          env: { SVC_TEST_STORAGE: 'postgres' },
          globalSetup: ['test/support/postgres-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // The browser-session tests against a Grid-backed server (`gridUrl`): one Selenium Grid
          // (hub + 2 nodes) for the project; its teardown fails the run unless the Grid reports 0
          // sessions and none of its Chromium processes is left. Left out, being about local
          // processes or local disk by nature: no-orphan (a local Chromium's pdeathsig and pid
          // reaping), warm-pool (no pool on a Grid: a pre-created session would hold a shared
          // slot), recycle (reuses local processes by pid), files (downloads and uploads live on
          // the Grid node's disk; a Grid-backed server answers 409 files_unavailable_on_grid,
          // tested in grid-backend.test.ts, which starts its own Grid-backed servers and so runs
          // in the integration project).
          name: 'integration-grid',
          include: ['test/integration/browser-sessions/*.test.ts'],
          exclude: [
            'test/integration/browser-sessions/{no-orphan,warm-pool,recycle,files,grid-backend}.test.ts',
          ],
          environment: 'node',
          env: { SVC_TEST_BROWSER_BACKEND: 'grid' },
          globalSetup: ['test/support/grid-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
