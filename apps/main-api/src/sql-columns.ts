/**
 * The row shapes of raw statements, written as column maps (name → PostgreSQL type) from which the
 * TypeScript row type is derived; test/repository-row-types.test.ts prepares each statement on the
 * migrated schema and compares its result columns with the map.
 */
export type PgType = "text" | "text[]" | "numeric" | "date" | "timestamptz" | "int4" | "int8" | "float8" | "bool" | "json" | "jsonb";

interface TsOf {
  text: string;
  "text[]": string[];
  /** Raw statements cast their sums to text: numerics that reach TypeScript are strings. */
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
}
