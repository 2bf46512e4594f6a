// One small SQL surface over SQLite (better-sqlite3, synchronous) and PostgreSQL (pg, pooled), so a
// store writes its statements once. Statements use `?` placeholders; PostgreSQL gets `$n`.
import type Database from 'better-sqlite3';
import pg from 'pg';

/** Which database a {@link Sql} talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** Parameter values a statement takes. */
export type SqlValue = string | number | bigint | Buffer | null;

/**
 * The statements the shared-state stores need, the same on both databases. Integers come back as
 * numbers on both (PostgreSQL BIGINT is parsed, not left a string): times are milliseconds.
 */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row of a query. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, if any. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; `changes` is the number of rows it touched. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * The column that orders rows by insertion, a tie-breaker for equal timestamps (`rowid` on
   * SQLite, a `seq` identity column on PostgreSQL).
   */
  readonly insertOrder: string;
}

/** {@link Sql} over an open better-sqlite3 database (statements run synchronously). */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  readonly insertOrder = 'rowid';

  constructor(readonly db: Database.Database) {}

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.db.prepare(sql).all(...params) as T[]);
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return Promise.resolve(this.db.prepare(sql).get(...params) as T | undefined);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return Promise.resolve({ changes: this.db.prepare(sql).run(...params).changes });
  }
}

const INT8_OID = 20;

/** Type parsers of our pools: BIGINT as a JS number (our integers are ms times and sizes). */
export const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** `?` placeholders to PostgreSQL's `$1, $2, ...` (our statements hold no `?` in literals). */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** {@link Sql} over a pg pool. */
export class PgSql implements Sql {
  readonly dialect = 'postgres' as const;
  readonly insertOrder = 'seq';
  private readonly text = new Map<string, string>();

  constructor(readonly pool: pg.Pool) {}

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }

  private query(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
    let text = this.text.get(sql);
    if (text === undefined) this.text.set(sql, (text = toPgPlaceholders(sql)));
    return this.pool.query(text, params as unknown[]);
  }
}
