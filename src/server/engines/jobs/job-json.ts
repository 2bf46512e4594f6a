import type { JobRow, JobStatus } from './job-store.js';

/** An async chat completion job on the wire (spec 2.6); unset fields are `null`. */
export interface JobJson {
  id: string;
  model: string;
  created_at: number;
  status: JobStatus;
  started_at: number | null;
  completed_at: number | null;
  /** The handler's result (a ChatCompletionResponse), once COMPLETED. */
  response: unknown;
  failed_at: number | null;
  error_message: string | null;
}

/** One entry of `GET /async/chat/completions` (ARCHITECTURE.md "async list"). */
export type JobListItemJson = Pick<
  JobJson,
  'id' | 'model' | 'status' | 'created_at' | 'started_at' | 'completed_at' | 'failed_at'
>;

/** Body of `GET /async/chat/completions`. */
export interface JobListJson {
  requests: JobListItemJson[];
  next_token: string | null;
}

/**
 * Serialise a stored job row to the job JSON of spec 2.6. The single place that maps storage to
 * the wire: list items and list bodies are derived from it.
 * @example toJobJson((await queue.get(userId, id))!)
 */
export function toJobJson(row: JobRow): JobJson {
  return {
    id: row.id,
    model: row.model,
    created_at: row.created_at,
    status: row.status,
    started_at: row.started_at,
    completed_at: row.completed_at,
    response: row.response === null ? null : (JSON.parse(row.response) as unknown),
    failed_at: row.failed_at,
    error_message: row.error_message,
  };
}

/** The list entry of a job: {@link toJobJson} without `response` and `error_message`. */
export function toJobListItemJson(row: JobRow): JobListItemJson {
  // Skip parsing the response: list rows never carry it.
  const { id, model, status, created_at, started_at, completed_at, failed_at } = toJobJson({
    ...row,
    response: null,
  });
  return { id, model, status, created_at, started_at, completed_at, failed_at };
}

/** Body of the list endpoint for one page of {@link JobStore.list}. */
export function toJobListJson(page: {
  jobs: readonly JobRow[];
  nextToken: string | null;
}): JobListJson {
  return { requests: page.jobs.map(toJobListItemJson), next_token: page.nextToken };
}
