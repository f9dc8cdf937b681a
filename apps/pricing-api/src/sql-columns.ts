/**
 * The row shapes of raw statements, written as column maps (name → PostgreSQL type) from which the
 * TypeScript row type is derived; test/repository-row-types.test.ts prepares each statement on the
 * migrated schema and compares its result columns (name, order, type, nullability) with the map.
 * The main API has its own copy: the two apps share no source but packages.
 */
export type PgType = "text" | "bpchar" | "text[]" | "numeric" | "date" | "timestamptz" | "int4" | "int8" | "bool" | "jsonb";

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
  bool: boolean;
  jsonb: unknown;
}

export type Columns = Readonly<Record<string, PgType | `${PgType} null`>>;

type TsOfColumn<T> = T extends `${infer P extends PgType} null` ? TsOf[P] | null : T extends PgType ? TsOf[T] : never;

export type RowOf<M extends Columns> = { -readonly [K in keyof M]: TsOfColumn<M[K]> };

/** The same type for each of `names`, in their order (for column lists the contracts define). */
export function columnsOf<const K extends string, const T extends PgType | `${PgType} null`>(names: readonly K[], type: T): Record<K, T> {
  return Object.fromEntries(names.map((name) => [name, type])) as Record<K, T>;
}

/** A statement and the columns it returns (`null`: it returns none, the test only prepares it). */
export interface CheckedStatement {
  name: string;
  sql: string;
  columns: Columns | null;
}
