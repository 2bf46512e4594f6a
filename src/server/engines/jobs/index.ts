export { JobQueueError } from './errors.js';
export type { JobQueueErrorCode } from './errors.js';
export { JOB_QUEUE_DEFAULTS, JobQueue } from './job-queue.js';
export type { JobContext, JobHandler, JobQueueOptions } from './job-queue.js';
export { JOB_STORE_DEFAULTS, JobStore } from './job-store.js';
export type { JobRow, JobStatus, JobStoreOptions } from './job-store.js';
export { toJobJson, toJobListItemJson, toJobListJson } from './job-json.js';
export type { JobJson, JobListItemJson, JobListJson } from './job-json.js';
