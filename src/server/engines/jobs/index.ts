export { JobQueueError } from './errors.js';
export type { JobQueueErrorCode } from './errors.js';
export { JOB_QUEUE_DEFAULTS, JobQueue } from './job-queue.js';
export type { JobContext, JobHandler, JobQueueOptions } from './job-queue.js';
export { JOB_STORE_DEFAULTS } from './job-store.js';
export type {
  JobClaim,
  JobPage,
  JobRow,
  JobStatus,
  JobStore,
  JobStoreOptions,
} from './job-store.js';
export { SqliteJobStore } from './job-store-sqlite.js';
export { PgJobStore } from './job-store-pg.js';
export { JOB_MIGRATIONS } from './job-schema.js';
export { toJobJson, toJobListItemJson, toJobListJson } from './job-json.js';
export type { JobJson, JobListItemJson, JobListJson } from './job-json.js';
