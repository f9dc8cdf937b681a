/**
 * A page's filters live in its URL (URLSearchParams): each becomes the operation's query as it is,
 * a repeated parameter as an array, and the API validates it as it would any client's. `Q` is the
 * operation's own query type (taken from where the value is used).
 */
export function queryOf<Q>(params: URLSearchParams): Q {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0] : values;
  }
  return query as Q;
}

/** Splits `a, b,,c` like the API does: trimmed, empty items dropped. */
export function listValue(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}
