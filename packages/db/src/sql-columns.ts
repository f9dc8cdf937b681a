/**
 * The row shapes of raw statements, written as column maps (name → PostgreSQL type) from which the
 * TypeScript row type is derived. `expectDeclaredColumns` (`@cloudcost/db/testing`) prepares each
 * statement on the migrated schema and compares its result columns (name, order, type and, where
 * the plan shows it, nullability) with the map.
 */
export type PgType = "text" | "bpchar" | "text[]" | "numeric" | "date" | "timestamptz" | "int4" | "int8" | "float8" | "bool" | "json" | "jsonb";

interface TsOf {
  text: string;
  /** char(n): currencies and hashes. */
  bpchar: string;
  "text[]": string[];
  /** Raw statements select numerics as text (exact): numerics that reach TypeScript are strings. */
  numeric: string;
  date: Date;
  timestamptz: Date;
  int4: number;
  int8: bigint;
  float8: number;
  bool: boolean;
  json: unknown;
  jsonb: unknown;
}

export type Columns = Readonly<Record<string, PgType | `${PgType} null`>>;

type TsOfColumn<T> = T extends `${infer P extends PgType} null` ? TsOf[P] | null : T extends PgType ? TsOf[T] : never;

export type RowOf<M extends Columns> = { -readonly [K in keyof M]: TsOfColumn<M[K]> };

/** A statement and the columns it returns (`null`: it returns none, the test only prepares it). */
export interface CheckedStatement {
  name: string;
  sql: string;
  columns: Columns | null;
  /**
   * Columns of nullable table columns that the statement's WHERE clause keeps from being null
   * (`x IS NOT NULL`, `x = ANY($1)`): the plan shows the table column, not the filter.
   */
  notNullByFilter?: readonly string[];
}

/** The same type for each of `names`, in their order (for column lists the contracts define). */
export function columnsOf<const K extends string, const T extends PgType | `${PgType} null`>(names: readonly K[], type: T): Record<K, T> {
  return Object.fromEntries(names.map((name) => [name, type])) as Record<K, T>;
}
